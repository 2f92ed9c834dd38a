// Records one stack@version of the truth corpus: the probe plays every case at every protocol
// version its library speaks (one cell after another, the library's own deadlines), then the
// built-in target runs the same cells through the runner, and both are kept side by side.
import type { LoadedCase } from '../../runner/cases/case-types.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../../runner/types.js';
import { recordAdapterCells } from './record-adapter.js';
import { probeCell, type ProbeCellRecord } from './probe-cell.js';
import { ProbeProcess } from './probe-process.js';
import { TRUTH_FORMAT, type TruthCell, type TruthRecording } from './truth-record.js';
import type { TruthStack } from './truth-stacks.js';

export interface RecordStackOptions {
  stack: TruthStack;
  /** The corpus's cases, in order (baseline first: it also decides which versions the library speaks). */
  cases: LoadedCase[];
  adapterTimeoutMs: number;
  /** Only these cases are played again; the others are kept from `previous` (a partial re-record with --case). */
  only?: ReadonlySet<string>;
  previous?: TruthRecording;
  onProgress?: (line: string) => void;
}

export async function recordStack(options: RecordStackOptions): Promise<TruthRecording> {
  const { stack, onProgress = () => {} } = options;
  const cases = options.cases.filter((loaded) => stack.excluded[loaded.case.id] === undefined);
  // A kept case keeps its cells and the digest it was recorded with, so the stale check still sees it.
  const kept = (id: string): { cells: TruthCell[]; sha256: string } | undefined => {
    const sha256 = options.previous?.cases[id];
    if (!options.only || options.only.has(id) || id === 'baseline' || sha256 === undefined) return undefined;
    return { cells: options.previous!.cells.filter((cell) => cell.case === id), sha256 };
  };
  const baseline = cases.find((loaded) => loaded.case.id === 'baseline');
  if (!baseline) throw new Error('the truth corpus needs the baseline case: it decides which versions a library speaks');
  const probe = new ProbeProcess(stack.kind, stack.alias);
  const probed = new Map<string, ProbeCellRecord>();
  let hello;
  const spoken: ProtocolVersion[] = [];
  const unspoken: TruthRecording['versions']['unspoken'] = {};
  try {
    hello = await probe.hello();
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
        if (JSON.stringify(record).includes('"hostAborted":true') || JSON.stringify(record).includes('"hung":{')) {
          onProgress(`${stack.target}: WARNING ${loaded.case.id} @ ${version} waited out the probe host's patience: the library has no deadline here; list the case in truth-stacks.ts NO_DEADLINE`);
        }
      }
    }
  } finally {
    await probe.close();
  }
  const toRun = cases.filter((loaded) => !kept(loaded.case.id));
  onProgress(`${stack.target}: adapter side, ${probed.size} cells`);
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
      if (!adapterCell) throw new Error(`${stack.target}: the runner produced no cell for ${key}`);
      cells.push({ case: loaded.case.id, protocolVersion: version, probe: probed.get(key)!, adapter: adapterCell });
    }
  }
  return {
    format: TRUTH_FORMAT,
    target: stack.target,
    kind: stack.kind,
    alias: stack.alias,
    package: { name: hello.package.name, version: hello.version, dir: hello.package.dir },
    ...(hello.builtOn ? { builtOn: hello.builtOn } : {}),
    adapterTimeoutMs: options.adapterTimeoutMs,
    versions: { spoken, unspoken },
    cases: Object.fromEntries(cases.map((loaded) => [loaded.case.id, kept(loaded.case.id)?.sha256 ?? loaded.sha256])),
    excluded: stack.excluded,
    cells,
  };
}

/** The library completed the baseline call: it returned a value that is not an error message. */
function speaks(record: ProbeCellRecord): boolean {
  if (!('calls' in record)) return false;
  const observation = record.calls[0]?.observation as { returned?: unknown } | undefined;
  if (observation === undefined || !('returned' in observation)) return false;
  const value = observation.returned;
  // mcp-remote: the host reads a JSON-RPC message; only a result is a completed call.
  return !(typeof value === 'object' && value !== null && 'jsonrpc' in value && !('result' in value));
}
