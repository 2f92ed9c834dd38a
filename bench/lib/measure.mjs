// @ts-check
// Timing and process helpers shared by every bench section: medians, ratios, child runs with peak RSS.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/ lives directly under it). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const RSS_PROBE = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url));

/** How many times each figure is measured; BENCH_REPEAT overrides (at least 5 unless told). */
export const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 5) || 5);

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Milliseconds an async function takes, and its value. */
export async function timeIt(run) {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

/**
 * Runs `measured` and `reference` alternately REPEAT times (so machine noise hits both alike)
 * and returns each side's samples and medians.
 */
export async function alternate(measured, reference, repeat = REPEAT) {
  const a = [];
  const b = [];
  for (let i = 0; i < repeat; i++) {
    a.push(await measured(i));
    b.push(await reference(i));
  }
  return { measured: a, reference: b };
}

/** A fresh temporary folder, removed by the returned cleanup. */
export function makeTempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `mcp-bench-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs `node <args>` in a child and measures wall time and the child's own peak RSS (MB)
 * through a preloaded probe that reports process.resourceUsage().maxRSS at exit.
 */
export function runNode(args, options = {}) {
  const { dir, cleanup } = makeTempDir('rss');
  const rssFile = join(dir, 'rss');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', RSS_PROBE, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      let rssMb = NaN;
      try {
        rssMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
      } catch {
        // The child died before its exit hook: RSS unknown.
      }
      cleanup();
      if (options.allowExit ? !options.allowExit.includes(code ?? -1) : code !== 0) {
        reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      resolve({ ms, rssMb, code, stdout, stderr });
    });
  });
}

/** measured ÷ reference, rounded for display. */
export function ratio(measured, reference) {
  return reference === 0 ? NaN : measured / reference;
}
