// A stored recording is stale as soon as the tree no longer plays what it recorded.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findStaleParts } from './find-stale.js';
import { TRUTH_FORMAT, type TruthRecording } from './truth-record.js';
import { digestWitness } from './witness-files.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function makeRecording(overrides: Partial<TruthRecording> = {}): TruthRecording {
  return {
    format: TRUTH_FORMAT,
    target: 'ts-sdk@1.32.2',
    kind: 'ts-sdk',
    alias: 'mcp-sdk-1.32.2',
    package: { name: '@modelcontextprotocol/sdk', version: '1.32.2', dir: 'node_modules/mcp-sdk-1.32.2' },
    adapterTimeoutMs: 10_000,
    versions: { spoken: ['2025-11-25'], unspoken: {} },
    cases: { baseline: 'aaa', 'tool-is-error': 'bbb' },
    witness: digestWitness(REPO_ROOT, 'ts-sdk'),
    excluded: {},
    cells: [],
    ...overrides,
  };
}

const input = { repoRoot: REPO_ROOT, expectedCases: ['baseline', 'tool-is-error'], caseDigests: new Map([['baseline', 'aaa'], ['tool-is-error', 'bbb']]) };

describe('findStaleParts', () => {
  it('finds nothing when the installed library, the case files and the probe side are the recorded ones', () => {
    expect(findStaleParts(makeRecording(), input)).toEqual([]);
  });

  it('names another installed version of the library or of the SDK under it, and a package no longer installed', () => {
    const recording = makeRecording({ package: { name: '@modelcontextprotocol/sdk', version: '1.31.0', dir: 'node_modules/mcp-sdk-1.32.2' }, builtOn: { name: 'x', version: '1', dir: 'node_modules/not-there' } });
    expect(findStaleParts(recording, input)).toEqual(['@modelcontextprotocol/sdk at node_modules/mcp-sdk-1.32.2 is 1.32.2, recorded with 1.31.0', 'x is no longer installed at node_modules/not-there']);
  });

  it('names the SDK under the library when it alone is another version', () => {
    const recording = makeRecording({ builtOn: { name: '@modelcontextprotocol/sdk', version: '1.24.0', dir: 'node_modules/mcp-sdk-1.25.0' } });
    expect(findStaleParts(recording, input)).toEqual(['@modelcontextprotocol/sdk at node_modules/mcp-sdk-1.25.0 is 1.25.0, recorded with 1.24.0']);
  });

  it('names a changed case file, a case the corpus gained and one it dropped', () => {
    const stale = findStaleParts(makeRecording({ cases: { baseline: 'old', dropped: 'ccc' } }), input);
    expect(stale).toEqual(['case tool-is-error is not recorded', 'case dropped is no longer in the corpus for this stack', 'case baseline changed since it was recorded']);
  });

  it('names a probe-side file that changed since the recording', () => {
    const witness = { ...digestWitness(REPO_ROOT, 'ts-sdk'), 'runner/targets/sdk/observe-call.mjs': 'old' };
    expect(findStaleParts(makeRecording({ witness }), input)).toEqual(['runner/targets/sdk/observe-call.mjs (the probe side) changed since it was recorded']);
  });

  it('names the Worker application of the cloudflare-agents probe when it changed: it records the calls in the runtime', () => {
    const app = 'test/stack-truth/probes/cloudflare-agents-app.mjs';
    const recording = makeRecording({ target: 'cloudflare-agents@0.32.0', kind: 'cloudflare-agents', witness: { ...digestWitness(REPO_ROOT, 'cloudflare-agents'), [app]: 'old' } });
    expect(findStaleParts(recording, input)).toEqual([`${app} (the probe side) changed since it was recorded`]);
  });

  it('names every probe-side file of a recording that kept no digests of them', () => {
    const recording: Partial<TruthRecording> = makeRecording();
    delete recording.witness;
    const stale = findStaleParts(recording as TruthRecording, input);
    expect(stale).toEqual(Object.keys(digestWitness(REPO_ROOT, 'ts-sdk')).map((file) => `${file} (the probe side) changed since it was recorded`));
    expect(stale).toContain('test/stack-truth/probes/ts-sdk.mjs (the probe side) changed since it was recorded');
  });
});
