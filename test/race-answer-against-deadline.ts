// Loop stalls in tests: stall the event loop on purpose, and race an answer already sent against
// a deadline (runner/starvation/loop-stall.ts, runner/harness/post-deadlines.ts).
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

const blocker = new Int32Array(new SharedArrayBuffer(4));

/**
 * Keeps the event loop from running for `ms` (what an overloaded machine does to it). The thread
 * sleeps instead of spinning: the loop stalls all the same, and the suite's other threads and
 * processes get the core (spinning cost the suite about 6 s of CPU).
 */
export function stallLoop(ms: number): void {
  const end = performance.now() + ms;
  for (let left = ms; left > 0; left = end - performance.now()) Atomics.wait(blocker, 0, 0, left);
}

type SetDeadline = (onExpire: () => void, ms: number) => void;

interface Scene {
  /** The server's end of the connection, once accepted. */
  serverSide: Socket;
  client: Socket;
  /** Sets the deadline under test; when it fires first, the race gives `['deadline']`. */
  armDeadline(ms: number): void;
}

/**
 * One race over loopback, in this process: `play` starts it once the client is connected and the
 * server has accepted; the client reading any data (`['answer']`) or the deadline firing
 * (`['deadline']`) ends it.
 */
async function race(setDeadline: SetDeadline, play: (scene: Scene) => void): Promise<string[]> {
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
      const end = (event: string): void => {
        events.push(event);
        client.destroy();
        resolve();
      };
      const client = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
        serverSide.then((socket) => play({ serverSide: socket, client, armDeadline: (ms) => setDeadline(() => end('deadline'), ms) }), reject);
      });
      client.on('error', () => {});
      client.on('data', () => end('answer'));
    });
  } finally {
    (await serverSide).destroy();
    await new Promise((resolve) => server.close(resolve));
  }
  return events;
}

/**
 * A server in this process that answers 100 ms after the client set a 200 ms deadline, and a
 * 400 ms stall of the loop that starts at once: when the loop runs again, the server's timer writes
 * the answer, and then which comes first, the client reading the answer or the deadline? A plain
 * timer fires first (expired timers run before sockets are read): `['deadline']`. A deadline that
 * does not count the stall, or gives the loop one more turn, reads the answer: `['answer']`.
 */
export function raceAnswerAgainstDeadline(setDeadline: SetDeadline): Promise<string[]> {
  return race(setDeadline, ({ serverSide, armDeadline }) => {
    armDeadline(200);
    setTimeout(() => serverSide.end('answer'), 100);
    // The stall starts before any timer can run; when it ends, the answer's timer (due first) and
    // the deadline are both due in the same turn, and the answer is on the socket.
    setImmediate(() => stallLoop(400));
  });
}

/** The harder race's timing: see raceTwoStepAnswerAgainstDeadline. */
export interface TwoStepRace {
  /**
   * A stall the machine adds when the loop runs again, just as the server reads the question (a
   * loaded machine takes the CPU back for that long); 0 by default.
   */
  machineStallMs?: number;
}

/**
 * The harder race: the server in this process answers 20 ms after it reads the question, and the
 * loop stalls for 700 ms right after the question is written, before the server could read it.
 * With a 600 ms deadline, one more turn of the loop after the deadline is not enough (the server
 * only then reads the question); only a deadline that adds the stalled time gives `['answer']`.
 * Such a deadline credits at most its own length, so it ends 2 × 600 ms after it was set at the
 * latest: 480 ms after the answer is due, room for a loaded machine to be late after the stall
 * (with 200 and 300 ms that room was 80 ms, and a full-suite run at load 8 read `['deadline']`).
 */
export function raceTwoStepAnswerAgainstDeadline(setDeadline: SetDeadline, timing: TwoStepRace = {}): Promise<string[]> {
  return race(setDeadline, ({ serverSide, client, armDeadline }) => {
    serverSide.once('data', () => {
      stallLoop(timing.machineStallMs ?? 0);
      setTimeout(() => serverSide.end('answer'), 20);
    });
    setTimeout(() => {
      client.write('question');
      armDeadline(600);
      stallLoop(700);
    }, 10);
  });
}
