// Loop stalls in tests: stall the event loop on purpose, and race an answer already sent against
// a deadline (runner/loop-stall.ts, runner/harness/post-deadlines.ts).
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** Keeps the event loop from running for `ms` (what an overloaded machine does to it). */
export function stallLoop(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy
  }
}

/**
 * A server that answers 20 ms after it is asked, a client that asks and sets a 200 ms deadline,
 * and a 400 ms stall of the loop right after the question: which comes first, the client reading
 * the answer or the deadline? A plain timer gives `['deadline']` (the stalled loop runs expired
 * timers before it reads sockets); one that does not count stalls gives `['answer']`.
 */
export async function raceAnswerAgainstDeadline(setDeadline: (onExpire: () => void, ms: number) => void): Promise<string[]> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {}); // the client may be gone (the deadline won)
    setTimeout(() => socket.end('answer'), 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const events: string[] = [];
  try {
    await new Promise<void>((resolve) => {
      const client = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
        client.write('question');
        setDeadline(() => {
          events.push('deadline');
          client.destroy();
          resolve();
        }, 200);
        // The loop stalls well past the deadline; the answer is sent during the first turn after it.
        setTimeout(() => stallLoop(400), 5);
      });
      client.on('error', () => {});
      client.on('data', () => {
        events.push('answer');
        client.destroy();
        resolve();
      });
    });
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
  return events;
}

/**
 * The harder race: the server in this process answers 20 ms after it reads the question, and the
 * loop stalls for 300 ms right after the question is written, before the server could read it.
 * With a 200 ms deadline, one more turn of the loop after the deadline is not enough (the server
 * only then reads the question); only a deadline that adds the stalled time gives `['answer']`.
 */
export async function raceTwoStepAnswerAgainstDeadline(setDeadline: (onExpire: () => void, ms: number) => void): Promise<string[]> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', () => setTimeout(() => socket.end('answer'), 20));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const events: string[] = [];
  try {
    await new Promise<void>((resolve) => {
      const client = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
        // Let the server accept first, then ask and stall before it can read the question.
        setTimeout(() => {
          client.write('question');
          setDeadline(() => {
            events.push('deadline');
            client.destroy();
            resolve();
          }, 200);
          stallLoop(300);
        }, 10);
      });
      client.on('error', () => {});
      client.on('data', () => {
        events.push('answer');
        client.destroy();
        resolve();
      });
    });
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
  return events;
}
