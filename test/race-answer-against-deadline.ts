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
 * A server in this process that answers 100 ms after the client set a 200 ms deadline, and a
 * 400 ms stall of the loop that starts at once: when the loop runs again, the server's timer writes
 * the answer, and then which comes first, the client reading the answer or the deadline? When the loop runs again, a plain timer fires first (expired timers run before
 * sockets are read): `['deadline']`. A deadline that does not count the stall, or gives the loop
 * one more turn, reads the answer: `['answer']`.
 */
export async function raceAnswerAgainstDeadline(setDeadline: (onExpire: () => void, ms: number) => void): Promise<string[]> {
  let accepted: (socket: Socket) => void = () => {};
  const serverSide = new Promise<Socket>((resolve) => (accepted = resolve));
  const server = createServer((socket) => {
    socket.on('error', () => {}); // the client may be gone (the deadline won)
    accepted(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const events: string[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const client = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
        serverSide.then((socket) => {
          setDeadline(() => {
            events.push('deadline');
            client.destroy();
            resolve();
          }, 200);
          setTimeout(() => socket.end('answer'), 100);
          // The stall starts before any timer can run; when it ends, the answer's timer (due
          // first) and the deadline are both due in the same turn, and the answer is on the socket.
          setImmediate(() => stallLoop(400));
        }, reject);
      });
      client.on('error', () => {});
      client.on('data', () => {
        events.push('answer');
        client.destroy();
        resolve();
      });
    });
  } finally {
    (await serverSide).destroy();
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
