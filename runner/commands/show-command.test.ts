import { describe, expect, test } from 'vitest';
import type { CliIo } from '../cli/cli-io.js';
import { loadCases } from '../cases/load-cases.js';
import { UsageError } from '../util/errors.js';
import { formatCase, runShowCommand } from './show-command.js';

function createIo(): CliIo & { out: string[] } {
  const out: string[] = [];
  return { out, stdout: (text) => void out.push(text), stderr: () => undefined, cwd: process.cwd(), env: {}, isTTY: false };
}

async function show(args: string[]): Promise<string> {
  const io = createIo();
  expect(await runShowCommand(args, io)).toBe(0);
  return io.out.join('');
}

describe('show', () => {
  test('prints identity, prose, spec, tool, the exact response per version and the verdict with its reason', async () => {
    const text = await show(['http-429-retry-after']);
    expect(text).toMatch(/^http-429-retry-after — HTTP 429 with Retry-After, then success on the retry\n/);
    expect(text).toContain('layer: transport   origin: extra   versions: 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28');
    expect(text).toContain('  - T25 § Sending Messages to the Server, item 5');
    expect(text).toContain('Tool: read_record   annotations: readOnlyHint: true, idempotentHint: true');
    expect(text).toContain('== 2025-11-25 ==');
    expect(text).toContain('== 2026-07-28 ==');
    expect(text).toContain('    HTTP 429\n    Retry-After: 1\n    Content-Length: 0\n    (no body)');
    expect(text).toContain('body: {"jsonrpc":"2.0","id":2,"result":{"resultType":"complete"');
    expect(text).toContain('a correct classifier concludes: HTTP_ERROR (status 429)\n    because: a non-2xx status');
    expect(text).toContain('  - POLICY retry-after: a retry waits at least the Retry-After delay');
    expect(text).toContain('Policy: Neither version mentions 429');
  });

  test('prints SSE events one per line, with the response marked and how the stream ends', async () => {
    const text = await show(['sse-slow-events', '--version', '2026-07-28']);
    expect(text).not.toContain('== 2025-11-25 ==');
    expect(text).toContain('SSE events (line endings: lf):');
    expect(text).toMatch(/\n {6}1\. data: \{"jsonrpc":"2\.0","method":"notifications\/progress".*\}\n/);
    expect(text).toMatch(/\n {6}2\. data: \{"jsonrpc":"2\.0","id":1,"error":\{.*\}\} {3}\[after 300 ms; the response\]\n/);
    expect(text).toContain('then the stream closes cleanly');
    expect(text).toContain('JSONRPC_ERROR (code -32602)');
  });

  test('marks a verdict that differs by version and shows schema validity per version', async () => {
    const text = await show(['structured-content-array']);
    const [v25, v26] = text.split('== 2026-07-28 ==');
    expect(v25).toContain('schema: the message is INVALID under 2025-11-25');
    expect(v25).toContain('INVALID_TOOL_RESULT (this version differs)');
    expect(v26).toContain('schema: the message is valid under 2026-07-28');
    expect(v26).toContain('a correct classifier concludes: TOOL_SUCCESS\n');
  });

  test('describes hangs, MRTR follow-ups and encodings in words', async () => {
    expect(await show(['no-response-hang'])).toContain('(never sends a status line: the connection stays open and silent)');
    expect(await show(['mrtr-form-with-state'])).toContain('Exchange 2: tools/call with id 2 — MRTR follow-up');
    expect(await show(['http-200-gzip-tool-error'])).toContain('(body sent gzip-compressed; decoded below)');
  });

  test('prints the alternatives the spec allows, with their level, reason and references', async () => {
    const text = await show(['wrong-response-id', '--version', '2026-07-28']);
    expect(text).toContain('a correct classifier concludes: INVALID_ENVELOPE\n');
    expect(text).toContain('  also accepted, failing only a SHOULD: STREAM_INCOMPLETE\n    because: id 99 answers no pending request');
    expect(text).toContain('    spec: B25 § Responses; B26 § Responses; L25 § Timeouts; CX26 § Timeouts\n');
    expect(await show(['baseline'])).not.toContain('also accepted');
  });

  test("prints a server fault's result where it is accepted, saying whose duty the fault breaks", async () => {
    const v26 = await show(['sse-server-request-ping', '--version', '2026-07-28']);
    expect(v26).toContain('a correct classifier concludes: INVALID_ENVELOPE');
    expect(v26).toContain("  also accepted, failing only a POLICY: TOOL_SUCCESS\n    because: the fault is the server's:");
    expect(v26).toContain('    spec: SH26 § Receiving Messages\n');
    expect(await show(['sse-server-request-ping', '--version', '2025-11-25'])).not.toContain('also accepted');
  });

  test('an unknown id is a usage error with a did-you-mean', async () => {
    const failure = runShowCommand(['baselin'], createIo());
    await expect(failure).rejects.toBeInstanceOf(UsageError);
    await expect(failure).rejects.toThrow(/no such case \(did you mean "baseline"\?\)/);
  });

  test('a version the case does not apply to, a bad version and a missing id are usage errors', async () => {
    await expect(runShowCommand(['session-expired-404', '--version', '2026-07-28'], createIo())).rejects.toThrow(/applies only to 2025-03-26, 2025-06-18, 2025-11-25/);
    await expect(runShowCommand(['baseline', '--version', '2099-01-01'], createIo())).rejects.toBeInstanceOf(UsageError);
    await expect(runShowCommand([], createIo())).rejects.toThrow(/exactly one case id/);
    await expect(runShowCommand(['baseline', '--bogus'], createIo())).rejects.toBeInstanceOf(UsageError);
  });

  test('formats every case of the table under every version it applies to', async () => {
    for (const loaded of await loadCases()) {
      const text = formatCase(loaded, loaded.case.versions);
      expect(text.startsWith(`${loaded.case.id} — `), loaded.case.id).toBe(true);
      expect(text.match(/a correct classifier concludes/g)?.length, loaded.case.id).toBe(loaded.case.exchanges.length * loaded.case.versions.length);
    }
  });
});

describe('show: 2025 resumption', () => {
  test('prints the events only a resuming GET gets, after the POST stream', async () => {
    const { runCli } = await import('../../test/run-cli.js');
    const run = await runCli(['show', 'sse-resume-after-retry-25']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/then the stream closes cleanly\n\s+on a GET resuming with Last-Event-ID: e1, the server replays:\n\s+2\. id: e2 ⏎ data: \{"jsonrpc":"2\.0","id":1,"result":/);
  });
});
