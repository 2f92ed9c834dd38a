// Runs an atlas's versions with a bounded number of live client workers (issue 32 item 2): a
// version that needs measuring holds one slot (its worker process) from start to close; a version
// reused whole from the previous atlas holds none. Slots go to the stack with the fewest versions
// in flight, so every stack advances; each stack is taken newest first. With a walk back, the first
// version (newest first) that speaks nothing is the stack's edge: no older version is started, and
// older ones already in flight are stopped and dropped, so what is kept does not depend on timing.
import type { StackPlan } from './plan-atlas.js';
import type { VersionState } from './atlas-types.js';

/** What the schedule needs to know of a version's outcome. */
export interface ScheduledOutcome {
  state: VersionState;
  /** The run was stopped before it finished (a signal, or dropped past the edge): nothing is kept. */
  interrupted?: boolean;
}

export interface AtlasScheduleOptions<T extends ScheduledOutcome> {
  plans: readonly StackPlan[];
  /** Versions measured at once, each with its live worker process. */
  workers: number;
  /** A stored outcome that needs no worker (reused whole from the previous atlas), else undefined. */
  reuse(kind: string, version: string): T | undefined;
  /** Measures one version; stops early (returning `interrupted`) when `signal` aborts. */
  measure(kind: string, version: string, signal: AbortSignal): Promise<T>;
  signal?: AbortSignal;
  /** Hears every outcome as it settles (kept or not: `dropped` when it lies past the edge). */
  onSettled?(event: { kind: string; version: string; outcome: T; reused: boolean; dropped: boolean }): void;
}

/** What one stack came to. */
export interface ScheduledStack<T extends ScheduledOutcome> {
  kind: string;
  /** The kept outcomes, newest first: every version down to the edge (included). */
  outcomes: { version: string; outcome: T; reused: boolean }[];
  /** The version the walk back stopped at, if it found one. */
  edge?: string;
  /** Published versions older than the edge: not measured. */
  beyondEdge: string[];
  /** Versions not measured because the atlas was stopped, newest first. */
  pending: string[];
}

interface StackState<T extends ScheduledOutcome> {
  plan: StackPlan;
  next: number;
  inFlight: Map<number, AbortController>;
  settled: Map<number, { outcome: T; reused: boolean }>;
  /** Index of the newest version found to speak nothing (walk back only). */
  edge: number | undefined;
}

/** Runs every plan; resolves when nothing is in flight and nothing more may start. */
export async function runAtlasSchedule<T extends ScheduledOutcome>(options: AtlasScheduleOptions<T>): Promise<ScheduledStack<T>[]> {
  const workers = Math.max(1, Math.floor(options.workers));
  const stacks: StackState<T>[] = options.plans.map((plan) => ({ plan, next: 0, inFlight: new Map(), settled: new Map(), edge: undefined }));
  const stopped = () => options.signal?.aborted === true;
  const hasNext = (stack: StackState<T>) => stack.next < stack.plan.versions.length && (stack.edge === undefined || stack.next < stack.edge);
  const mayStart = (stack: StackState<T>) => !stopped() && hasNext(stack);
  let live = 0;
  let wake: (() => void) | undefined;
  const onAbort = () => {
    for (const stack of stacks) for (const controller of stack.inFlight.values()) controller.abort(options.signal?.reason);
    wake?.();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const settle = (stack: StackState<T>, index: number, outcome: T, reused: boolean) => {
    const version = stack.plan.versions[index]!;
    const isEdge = stack.plan.walkBack && !outcome.interrupted && outcome.state !== 'measured';
    if (isEdge && (stack.edge === undefined || index < stack.edge)) {
      stack.edge = index;
      // Older versions still running can only be dropped: stop them now.
      for (const [other, controller] of stack.inFlight) if (other > index) controller.abort('past the edge');
    }
    const dropped = stack.edge !== undefined && index > stack.edge;
    if (!outcome.interrupted) stack.settled.set(index, { outcome, reused });
    options.onSettled?.({ kind: stack.plan.kind, version, outcome, reused, dropped });
  };

  // Reused versions take no slot: each stack settles the ones at its head at once (after a stop too:
  // what an earlier atlas measured is kept).
  const settleReused = (stack: StackState<T>) => {
    while (hasNext(stack)) {
      const index = stack.next;
      const stored = options.reuse(stack.plan.kind, stack.plan.versions[index]!);
      if (stored === undefined) return;
      stack.next++;
      settle(stack, index, stored, true);
    }
  };

  const start = (stack: StackState<T>) => {
    const index = stack.next++;
    const controller = new AbortController();
    stack.inFlight.set(index, controller);
    live++;
    void options
      .measure(stack.plan.kind, stack.plan.versions[index]!, controller.signal)
      .then(
        (outcome) => settle(stack, index, outcome, false),
        // A measure that throws is a harness bug: it stops the atlas like a signal, and is rethrown.
        (error: unknown) => {
          failure ??= { error };
          onAbort();
        },
      )
      .finally(() => {
        stack.inFlight.delete(index);
        live--;
        wake?.();
      });
  };

  let failure: { error: unknown } | undefined;
  try {
    for (;;) {
      for (const stack of stacks) settleReused(stack);
      while (live < workers && failure === undefined) {
        const candidates = stacks.filter(mayStart);
        if (candidates.length === 0) break;
        // The stack with the fewest versions in flight; ties in plan order.
        const stack = candidates.reduce((best, s) => (s.inFlight.size < best.inFlight.size ? s : best));
        start(stack);
        settleReused(stack);
      }
      if (live === 0) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (failure) throw failure.error;
  return stacks.map((stack) => summarise(stack));
}

function summarise<T extends ScheduledOutcome>(stack: StackState<T>): ScheduledStack<T> {
  const { versions } = stack.plan;
  const last = stack.edge ?? versions.length - 1;
  const outcomes: ScheduledStack<T>['outcomes'] = [];
  const pending: string[] = [];
  for (let index = 0; index <= last; index++) {
    const settled = stack.settled.get(index);
    if (settled) outcomes.push({ version: versions[index]!, ...settled });
    else pending.push(versions[index]!);
  }
  return {
    kind: stack.plan.kind,
    outcomes,
    ...(stack.edge === undefined ? {} : { edge: versions[stack.edge]! }),
    beyondEdge: stack.edge === undefined ? [] : versions.slice(stack.edge + 1),
    pending,
  };
}
