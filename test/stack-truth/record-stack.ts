// Records one stack@version of the truth corpus: the probe plays every case at every protocol
// version its library speaks (one cell after another, the library's own deadlines), then the
// built-in target runs the same cells through the runner, and both are kept side by side.
import { fileURLToPath } from 'node:url';
import type { LoadedCase } from '../../runner/cases/case-types.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../../runner/vocabulary/types.js';
import { recordAdapterCells } from './record-adapter.js';
import { probeCell, type ProbeCellRecord } from './probe-cell.js';
import { ProbeProcess, type ProbeHello } from './probe-process.js';
import { TRUTH_FORMAT, type TruthCell, type TruthRecording } from './truth-record.js';
import type { TruthStack } from './truth-stacks.js';
import { digestWitness } from './witness-files.js';
import { digestCaseBehaviour } from './case-behaviour.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RecordStackOptions {
  stack: TruthStack;
  /** The corpus's cases (baseline among them: it also decides which versions the library speaks). */
  cases: LoadedCase[];
  adapterTimeoutMs: number;
  /** The recording so far: kept cells come from it. */
  previous?: TruthRecording;
  /** Only these cases are played again; the others are kept from `previous` (a partial re-record with --case). */
  only?: ReadonlySet<string>;
  /** Keeps the probe side of `previous` and runs only the adapter side again (after an adapter change). */
  adapterOnly?: boolean;
  onProgress?: (line: string) => void;
}

interface ProbeSide {
  hello: ProbeHello;
  witness: Record<string, string>;
  versions: TruthRecording['versions'];
  probed: Map<string, ProbeCellRecord>;
}

export async function recordStack(options: RecordStackOptions): Promise<TruthRecording> {
  const { stack, previous, onProgress = () => {} } = options;
  const cases = options.cases.filter((loaded) => stack.excluded[loaded.case.id] === undefined);
  // A kept case keeps its cells and the digest it was recorded with, so the stale check still sees it.
  const kept = (id: string): { cells: TruthCell[]; sha256: string } | undefined => {
    const sha256 = previous?.cases[id];
    if (!options.only || options.only.has(id) || id === 'baseline' || sha256 === undefined) return undefined;
    return { cells: previous!.cells.filter((cell) => cell.case === id), sha256 };
  };
  const side = options.adapterOnly ? reuseProbeSide(stack, cases, previous) : await runProbeSide(stack, cases, kept, onProgress);
  const { spoken } = side.versions;
  const toRun = cases.filter((loaded) => !kept(loaded.case.id));
  onProgress(`${stack.target}: adapter side, ${side.probed.size} cells`);
  const adapter = await recordAdapterCells({ target: stack.target, cases: toRun, versions: spoken, timeoutMs: options.adapterTimeoutMs });
  const cells: TruthCell[] = [];
  for (const loaded of cases) {
    const keep = kept(loaded.case.id);
    if (keep) {
      cells.push(...keep.cells);
      continue;
    }
    for (const version of loaded.case.versions.filter((v) => spoken.includes(v))) {
      const key = `${loaded.case.id}@${version}`;
      const adapterCell = adapter.get(key);
      const probed = side.probed.get(key);
      if (!adapterCell || !probed) throw new Error(`${stack.target}: no ${adapterCell ? 'probe' : 'adapter'} record for ${key}`);
      cells.push({ case: loaded.case.id, protocolVersion: version, probe: probed, adapter: adapterCell });
    }
  }
  const { hello } = side;
  return {
    format: TRUTH_FORMAT,
    target: stack.target,
    kind: stack.kind,
    alias: stack.alias,
    package: { name: hello.package.name, version: hello.version, dir: hello.package.dir },
    ...(hello.builtOn ? { builtOn: hello.builtOn } : {}),
    adapterTimeoutMs: options.adapterTimeoutMs,
    versions: side.versions,
    cases: Object.fromEntries(cases.map((loaded) => [loaded.case.id, kept(loaded.case.id)?.sha256 ?? digestCaseBehaviour(loaded)])),
    witness: side.witness,
    excluded: stack.excluded,
    cells,
  };
}

async function runProbeSide(stack: TruthStack, cases: LoadedCase[], kept: (id: string) => unknown, onProgress: (line: string) => void): Promise<ProbeSide> {
  const baseline = cases.find((loaded) => loaded.case.id === 'baseline');
  if (!baseline) throw new Error('the truth corpus needs the baseline case: it decides which versions a library speaks');
  const witness = digestWitness(REPO_ROOT, stack.kind);
  const probe = new ProbeProcess(stack.kind, stack.alias);
  const probed = new Map<string, ProbeCellRecord>();
  const spoken: ProtocolVersion[] = [];
  const unspoken: TruthRecording['versions']['unspoken'] = {};
  try {
    const hello = await probe.hello();
    if (hello.version !== stack.version) throw new Error(`${stack.alias} is ${hello.version}, not ${stack.version}: run npm ci`);
    for (const version of PROTOCOL_VERSIONS) {
      const record = await probeCell(probe, baseline, version);
      if (speaks(record)) {
        spoken.push(version);
        probed.set(`baseline@${version}`, record);
      } else unspoken[version] = 'openFailed' in record ? { openFailed: record.openFailed } : record.calls[0]?.observation;
    }
    onProgress(`${stack.target}: speaks ${spoken.join(', ') || 'no version'}`);
    for (const loaded of cases) {
      if (loaded.case.id === 'baseline' || kept(loaded.case.id)) continue;
      for (const version of loaded.case.versions.filter((v) => spoken.includes(v))) {
        const started = performance.now();
        const record = await probeCell(probe, loaded, version);
        probed.set(`${loaded.case.id}@${version}`, record);
        onProgress(`${stack.target}: probe ${loaded.case.id} @ ${version} (${Math.round(performance.now() - started)} ms)`);
        const text = JSON.stringify(record);
        if (text.includes('"hostAborted":true') || text.includes('"hung":{')) {
          onProgress(`${stack.target}: WARNING ${loaded.case.id} @ ${version} waited out the probe host's patience: the library has no deadline here; list the case in truth-stacks.ts NO_DEADLINE`);
        }
      }
    }
    return { hello, witness, versions: { spoken, unspoken }, probed };
  } finally {
    await probe.close();
  }
}

/** The probe side of the previous recording, when it is still current (same library, same case files). */
function reuseProbeSide(stack: TruthStack, cases: LoadedCase[], previous: TruthRecording | undefined): ProbeSide {
  if (!previous || previous.package.version !== stack.version) throw new Error(`${stack.target}: --adapter-only needs a recording of this version to keep; record it in full first`);
  for (const loaded of cases) {
    if (previous.cases[loaded.case.id] !== digestCaseBehaviour(loaded)) throw new Error(`${stack.target}: case ${loaded.case.id} changed since the recording (or is new): record it in full (without --adapter-only)`);
  }
  const witness = digestWitness(REPO_ROOT, stack.kind);
  const changed = Object.keys(witness).filter((file) => previous.witness?.[file] !== witness[file]);
  if (changed.length > 0) throw new Error(`${stack.target}: the probe side changed since the recording (${changed.join(', ')}): record it in full (without --adapter-only)`);
  const probed = new Map(previous.cells.map((cell) => [`${cell.case}@${cell.protocolVersion}`, cell.probe]));
  const hello: ProbeHello = { package: { name: previous.package.name, dir: previous.package.dir }, version: previous.package.version, ...(previous.builtOn ? { builtOn: previous.builtOn } : {}) };
  return { hello, witness, versions: previous.versions, probed };
}

/** The library completed the baseline call: it returned a value, and (mcp-remote) the host read a result. */
function speaks(record: ProbeCellRecord): boolean {
  if (!('calls' in record)) return false;
  const observation = record.calls[0]?.observation as { returned?: unknown } | undefined;
  if (observation === undefined || !('returned' in observation)) return false;
  const value = observation.returned as { received?: unknown; message?: unknown } | null;
  // mcp-remote: what the host read on the bridge's stdout; only a result message is a completed call.
  if (typeof value === 'object' && value !== null && 'received' in value) return value.received === 'message' && typeof value.message === 'object' && value.message !== null && 'result' in value.message;
  return true;
}
