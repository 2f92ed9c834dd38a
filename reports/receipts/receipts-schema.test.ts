// schemas/receipts.schema.json describes receipts.json as the tool writes it (issue 13 §4):
// a real run's receipts, and receipts with every optional part (what ran, roots, a signature).
import { readFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../runner/util/package-paths.js';
import { runCli } from '../../test/run-cli.js';
import { createReceipts, RECEIPTS_FILE } from './receipts.js';
import { loadSigningKey } from './sign-receipts.js';

const validate = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(JSON.parse(readFileSync(packagePath('schemas', 'receipts.schema.json'), 'utf8')));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-receipts-schema-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('schemas/receipts.schema.json', () => {
  it("accepts a real run's receipts.json", { timeout: 60_000 }, async () => {
    const run = await runCli(['run', '--target', 'reference', '--case', 'malformed-json', '--mode', 'direct', '--no-schemas', '--no-baseline', '--quiet', '--out', 'report'], { cwd: dir });
    expect(run.code).toBe(0);
    const receipts = JSON.parse(await readFile(join(dir, 'report', RECEIPTS_FILE), 'utf8'));
    expect(validate(receipts), JSON.stringify(validate.errors)).toBe(true);
  });

  it('accepts receipts with what ran, user roots and a signature, and refuses a wrong one', async () => {
    await mkdir(join(dir, 'out'), { recursive: true });
    await mkdir(join(dir, 'mine'), { recursive: true });
    await writeFile(join(dir, 'out', 'results.json'), '{}');
    await writeFile(join(dir, 'mine', 'case.json'), '{}');
    const keyFile = join(dir, 'key.pem');
    await writeFile(keyFile, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const { receipts } = await createReceipts({
      inputs: [{ kind: 'case', path: join(dir, 'mine', 'case.json'), label: 'case', root: 'cases' }],
      outputs: ['results.json'],
      outDir: join(dir, 'out'),
      roots: { cases: { dir: join(dir, 'mine'), what: 'the cases' } },
      ran: { tool: { name: 'mcp-error-matrix', version: '0.1.0', commit: 'a'.repeat(40) }, node: 'v20.0.0', platform: 'linux-x64', targets: [{ name: 'ts-sdk@1.0.0', kind: 'client', version: '1.0.0', package: { name: '@modelcontextprotocol/sdk', version: '1.0.0', integrity: 'sha512-x', integrityFrom: 'package-lock.json' } }] },
      signer: await loadSigningKey(keyFile, '--sign'),
    });
    expect(validate(receipts), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...receipts, roots: { report: { what: 'x' } } })).toBe(false); // "report" is not a movable root
    expect(validate({ ...receipts, outputs: [{ ...receipts.outputs[0], base: 'cases' }] })).toBe(false);
    expect(validate({ ...receipts, inputs: [] })).toBe(false);
  });
});
