// Reads the outcome table of OUTCOMES.md (the documented recovery per outcome), so tests can hold
// the code (getRecovery) and the consequence grading to the document rather than to a copy of it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OUTCOMES, REPLAY_ADVICE, type Outcome, type ReplayAdvice } from '../vocabulary/types.js';

export interface DocumentedRecovery {
  outcome: Outcome;
  hasFinalResult: boolean;
  /** The replay advice when no code below applies. */
  replay: ReplayAdvice;
  /** Replay advice that depends on the JSON-RPC code ("`x` for -32602, else `y`"). */
  replayByCode: Partial<Record<number, ReplayAdvice>>;
}

const OUTCOMES_MD = fileURLToPath(new URL('./OUTCOMES.md', import.meta.url));

/** The rows of the `| Outcome | Layer | When | Recovery | Rationale |` table, in document order. */
export function readOutcomesTable(text = readFileSync(OUTCOMES_MD, 'utf8')): DocumentedRecovery[] {
  const rows: DocumentedRecovery[] = [];
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const outcome = /^`([A-Z_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (outcome === undefined || !(OUTCOMES as readonly string[]).includes(outcome) || cells.length < 6) continue;
    rows.push(readRecovery(outcome as Outcome, cells[4]!));
  }
  return rows;
}

function readRecovery(outcome: Outcome, text: string): DocumentedRecovery {
  const final = /^`(true|false)`,\s*(.*)$/.exec(text);
  if (!final) throw new Error(`OUTCOMES.md, ${outcome}: the recovery "${text}" does not start with \`true\` or \`false\``);
  const rest = final[2]!;
  const byCode = /^`(\w+)` for (-?\d+), else `(\w+)`$/.exec(rest);
  const plain = /^`(\w+)`$/.exec(rest);
  const advice = (value: string): ReplayAdvice => {
    if (!(REPLAY_ADVICE as readonly string[]).includes(value)) throw new Error(`OUTCOMES.md, ${outcome}: "${value}" is not a replay advice`);
    return value as ReplayAdvice;
  };
  if (byCode) return { outcome, hasFinalResult: final[1] === 'true', replay: advice(byCode[3]!), replayByCode: { [Number(byCode[2])]: advice(byCode[1]!) } };
  if (plain) return { outcome, hasFinalResult: final[1] === 'true', replay: advice(plain[1]!), replayByCode: {} };
  throw new Error(`OUTCOMES.md, ${outcome}: cannot read the replay advice "${rest}"`);
}
