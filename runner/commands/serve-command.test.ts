import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Runs `serve` in-process; `drive` gets the URL once it is printed, and a way to wait until the
 * output matches (the exchange log lines), then the run is aborted.
 */
async function serve(args: string[], drive: (url: string, printedMatch: (pattern: RegExp) => Promise<void>) => Promise<void>) {
  const controller = new AbortController();
  let printed = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  let announce: (url: string) => void = () => undefined;
  const urlSeen = new Promise<string>((resolve) => (announce = resolve));
  const running = runCli(['serve', ...args], {
    cwd: ROOT,
    signal: controller.signal,
    stdout: (text) => {
      printed += text;
      const url = /URL: (\S+)/.exec(printed)?.[1];
      if (url) announce(url);
      for (const waiter of waiters.filter((item) => item.pattern.test(printed))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
  });
  const printedMatch = (pattern: RegExp) => (pattern.test(printed) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ pattern, resolve })));
  const url = await Promise.race([urlSeen, running.then((run) => Promise.reject(new Error(`serve ended early: ${run.stderr}`)))]);
  try {
    await drive(url, printedMatch);
  } finally {
    controller.abort();
  }
  const run = await running;
  return { ...run, stdout: printed, url };
}

const HEADERS26 = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'delete_record' };
const call26 = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'delete_record', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });

describe('serve', () => {
  it('prints the URL and the plan, logs each exchange as it happens, and stops when aborted', async () => {
    const seen: number[] = [];
    const run = await serve(['http-503-empty-body', '--version', '2026-07-28'], async (url, printedMatch) => {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      for (const id of [1, 2]) seen.push((await fetch(url, { method: 'POST', headers: HEADERS26, body: call26(id) })).status);
      // The log line is written when the server is done with the exchange: wait for it, not 20 ms.
      await printedMatch(/#2 \+\d+ms POST tools\/call id=2 .*\n/);
    });
    // serve only ends by a signal; the CLI reports a signal stop as the shell would (130).
    expect(run.code).toBe(130);
    expect(seen).toEqual([503, 503]);
    expect(run.stdout).toContain('Serving http-503-empty-body (');
    expect(run.stdout).toContain('under 2026-07-28');
    expect(run.stdout).toMatch(/1\. tools\/call → HTTP 503, no content type: no body {3}\(a correct client concludes HTTP_ERROR\)/);
    expect(run.stdout).toContain("curl -sS -N -H 'Accept: application/json, text/event-stream'");
    expect(run.stdout).toMatch(/#1 \+\d+ms POST tools\/call id=1 \[script step 1\] → 503 \(complete, 0 bytes\)/);
    expect(run.stdout).toMatch(/#2 \+\d+ms POST tools\/call id=2 \[script step 1\] → 503/);
    expect(run.stdout).toContain('Stopped after 2 exchange(s).');
  });

  it('serves 2025-11-25 by default for a case with both versions, with initialize and a session', async () => {
    const run = await serve(['baseline'], async (url, printedMatch) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      const response = await fetch(url, { method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, body });
      expect(response.headers.get('mcp-session-id')).toBeTruthy();
      await response.text();
      await printedMatch(/#1 \+\d+ms POST initialize id=0 .*\n/);
    });
    expect(run.stdout).toContain('under 2025-11-25');
    expect(run.stdout).toContain('initialize first');
    expect(run.stdout).toMatch(/#1 \+\d+ms POST initialize id=0 → 200 application\/json \(complete, \d+ bytes\)/);
  });

  it.each([
    [['no-such-case'], 'no such case'],
    [['baseline', '--port', '70000'], '--port 70000'],
    [['mrtr-form-with-state', '--version', '2025-11-25'], 'applies only to 2026-07-28'],
    [[], 'expected exactly one case id'],
  ])('rejects %j as a usage error', async (args, message) => {
    const run = await runCli(['serve', ...args], { cwd: ROOT, signal: AbortSignal.abort() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  // As a real process (the compiled CLI: `npm run build`): the SIGINT message is the process's, not the command's.
  // The limit only covers start-up on a loaded machine; the test waits on the printed plan, not on time.
  it('stops on Ctrl+C (SIGINT) saying so, and promises no report (serve writes none)', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [resolve(ROOT, 'bin/mcp-error-matrix.js'), 'serve', 'baseline'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    await new Promise<void>((ready) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('Press Ctrl+C to stop')) ready();
      }),
    );
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/SIGINT: stopping/);
    expect(stderr).not.toMatch(/report|incomplete/i);
    expect(stdout).toContain('Stopped after 0 exchange(s).');
  });
});
