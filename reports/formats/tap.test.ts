import { Parser } from 'tap-parser';
import { describe, expect, test } from 'vitest';
import { CELL_STATUSES, type RunResult } from '../../runner/vocabulary/types.js';
import { makeHostileRunResult, makeRunResult } from '../../test/make-run-result.js';
import { SPEC_COMMIT } from '../model/index.js';
import { render } from './tap.js';

interface ParsedTap {
  ok: boolean;
  failures: unknown[];
  bailout: string | undefined;
  count: number;
  subtests: { name: string; asserts: { ok: boolean; name: string; todo: unknown; skip: unknown; diag: unknown }[] }[];
}

/** Parses TAP strictly: any non-TAP line is an error. */
async function parseStrict(tap: string): Promise<ParsedTap> {
  const subtests: ParsedTap['subtests'] = [];
  let bailout: string | undefined;
  const parser = new Parser({ strict: true }, () => {});
  parser.on('child', (child: Parser) => {
    const entry = { name: '', asserts: [] as ParsedTap['subtests'][number]['asserts'] };
    subtests.push(entry);
    child.on('assert', (point: { ok: boolean; name: string; todo: unknown; skip: unknown; diag: unknown }) => entry.asserts.push(point));
    child.on('comment', () => {});
  });
  parser.on('bailout', (reason: string) => (bailout = reason));
  const done = new Promise<{ ok: boolean; failures: unknown[]; count: number }>((resolve) => parser.on('complete', resolve));
  parser.end(tap);
  const final = await done;
  return { ok: final.ok, failures: final.failures, count: final.count, bailout, subtests };
}

describe('TAP 14', () => {
  test('passes a strict TAP 14 parser: one subtest per target, one point per cell', async () => {
    const result = makeRunResult();
    const parsed = await parseStrict(render(result));
    expect(parsed.count).toBe(result.targets.length);
    expect(parsed.subtests.map((s) => s.asserts.length)).toEqual(result.targets.map((t) => result.cells.filter((c) => c.target === t.name).length));
    expect(parsed.failures.filter((f) => (f as { tapError?: unknown }).tapError)).toEqual([]);
  });

  test('maps every status: skip and xfail are directives, fail/error/xpass are not ok, non_strict is ok', async () => {
    const result = makeRunResult();
    expect(new Set(result.cells.map((c) => c.status))).toEqual(new Set(CELL_STATUSES));
    const parsed = await parseStrict(render(result));
    // Points come in the order of each target's cells.
    const pairs = result.targets.flatMap((target, index) =>
      result.cells.filter((cell) => cell.target === target.name).map((cell, n) => ({ cell, point: parsed.subtests[index]!.asserts[n]! })),
    );
    const byName = (status: string) => pairs.find((pair) => pair.cell.status === status)!.point;
    expect(byName('pass').ok).toBe(true);
    expect(byName('non_strict').ok).toBe(true);
    expect(byName('skip').skip).toBeTruthy();
    expect(byName('xfail').todo).toBeTruthy();
    expect(byName('fail').ok).toBe(false);
    expect(byName('error').ok).toBe(false);
    expect(byName('xpass').ok).toBe(false);
  });

  test('not ok points carry YAML diagnostics with expected, actual, the failed checks and a repro command', async () => {
    const result = makeRunResult();
    const points = (await parseStrict(render(result))).subtests.flatMap((s) => s.asserts);
    const failing = points.find((p) => !p.ok && !p.todo)!;
    expect(failing.diag).toMatchObject({ expected: expect.anything(), actual: expect.anything(), repro: expect.stringMatching(/mcp-error-matrix run/) });
  });

  test('ends with one comment per target: unexpected and known failures apart, by consequence', async () => {
    const tap = render(makeRunResult());
    expect(tap).toContain('\n# reference: 1 unexpected: 1 stale baseline entry · 0 known\n# naive: 2 unexpected: 1 false success, 1 error (not measured) · 1 known: 1 false success\n');
    const points = (await parseStrict(tap)).subtests.flatMap((s) => s.asserts);
    expect(points.find((p) => p.todo)!.diag).toMatchObject({ failed: [expect.stringMatching(/\(false success\)$/)] });
  });

  test('a spec reference in the diagnostics links the page it cites at the pinned commit', async () => {
    const points = (await parseStrict(render(makeRunResult()))).subtests.flatMap((s) => s.asserts);
    const failing = points.find((p) => !p.ok && !p.todo && (p.diag as { spec?: unknown }).spec)!;
    expect((failing.diag as { spec: string[] }).spec).toEqual([
      `ST25 CallToolResult (https://github.com/modelcontextprotocol/modelcontextprotocol/blob/${SPEC_COMMIT}/schema/2025-11-25/schema.ts)`,
    ]);
  });

  test('an interrupted run ends with Bail out!', async () => {
    const result: RunResult = { ...makeRunResult(), complete: false };
    expect((await parseStrict(render(result))).bailout).toMatch(/interrupted/);
  });

  test('hostile case ids, target names and wire text cannot add or break TAP lines', async () => {
    const hostile = makeHostileRunResult();
    const tap = render(hostile);
    const parsed = await parseStrict(tap);
    expect(parsed.subtests.flatMap((s) => s.asserts)).toHaveLength(hostile.cells.length);
    expect(tap).not.toMatch(/\u001b/);
  });
});
