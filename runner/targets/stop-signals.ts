// The signals that stop a process from outside (a terminal's Ctrl-C, `timeout`, a CI cancel,
// `docker stop`, a closed terminal), as opposed to a crash. Those reach the whole process group,
// so a client or worker dies of one beside the runner; what it then "concluded" is not its doing,
// and the runner stops the run itself (issue 28 item 1).
import { constants } from 'node:os';

const STOP_SIGNALS: ReadonlySet<string> = new Set(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']);

/** Whether a process ended by a stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT). */
export function isStopSignal(signal: string | null | undefined): boolean {
  return signal != null && STOP_SIGNALS.has(signal);
}

/**
 * The stop signal a process ended by: its own signal, or the 128+N exit status of a shell whose
 * command died of one; undefined otherwise.
 */
export function findStopSignal(exit: { exitCode: number | null; signal: string | null }): string | undefined {
  if (exit.signal !== null) return isStopSignal(exit.signal) ? exit.signal : undefined;
  if (exit.exitCode === null || exit.exitCode <= 128) return undefined;
  const name = Object.entries(constants.signals).find(([, number]) => number === exit.exitCode! - 128)?.[0];
  return isStopSignal(name) ? name : undefined;
}

/** The sentence a cell gets when its client or worker was stopped from outside. */
export function describeOutsideStop(who: string, signal: string): string {
  return `${who} was stopped by ${signal} from outside the runner (a signal to the whole process group, such as Ctrl-C, \`timeout\` or a CI cancel), so this cell was not measured`;
}
