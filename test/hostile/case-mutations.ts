// Mutations of a case file that the loader must refuse: each names the file it breaks and the
// JSON pointer the error message must carry (undefined when the file is not JSON at all).
import type { Case } from '../../runner/cases/case-types.js';
import { PROTOCOL_VERSIONS } from '../../runner/vocabulary/types.js';

export interface CaseMutation {
  name: string;
  /** Applies to a parsed case; returns the new file text, or undefined when it does not apply. */
  apply(item: Case, text: string): string | undefined;
  /** The pointer the message must name; undefined for broken JSON. */
  pointer: string | undefined;
  /** The file (relative to the table root) the message must name; default: the mutated file. */
  extraFile?: (item: Case) => { path: string; text: string };
}

type Json = Record<string, unknown>;

function edit(item: Case, change: (copy: Json) => void): string {
  const copy = structuredClone(item) as unknown as Json;
  change(copy);
  return JSON.stringify(copy, null, 2);
}

function exchange0(copy: Json): Json {
  return (copy.exchanges as Json[])[0]!;
}

/** Every mutation kind; the test samples a few per file and runs each kind at least once. */
export const CASE_MUTATIONS: CaseMutation[] = [
  { name: 'wrong type: id is a number', pointer: '/id', apply: (item) => edit(item, (c) => void (c.id = 42)) },
  { name: 'wrong type: versions is a string', pointer: '/versions', apply: (item) => edit(item, (c) => void (c.versions = '2025-11-25')) },
  { name: 'wrong type: title is an array', pointer: '/title', apply: (item) => edit(item, (c) => void (c.title = ['x'])) },
  { name: 'wrong type: exchanges is an object', pointer: '/exchanges', apply: (item) => edit(item, (c) => void (c.exchanges = { 0: exchange0(c) })) },
  { name: 'wrong type: response is an array', pointer: '/exchanges/0/response', apply: (item) => edit(item, (c) => void (exchange0(c).response = [])) },
  { name: 'wrong type: expected outcome is a number', pointer: '/exchanges/0/expect/outcome', apply: (item) => edit(item, (c) => void ((exchange0(c).expect as Json).outcome = 7)) },
  { name: 'bad enum: layer misspelt', pointer: '/layer', apply: (item) => edit(item, (c) => void (c.layer = 'transprt')) },
  { name: 'bad enum: outcome misspelt', pointer: '/exchanges/0/expect/outcome', apply: (item) => edit(item, (c) => void ((exchange0(c).expect as Json).outcome = 'TOOL_SUCCES')) },
  { name: 'missing: title', pointer: '/title', apply: (item) => edit(item, (c) => void delete c.title) },
  { name: 'missing: exchanges', pointer: '/exchanges', apply: (item) => edit(item, (c) => void delete c.exchanges) },
  { name: 'missing: exchange expect', pointer: '/exchanges/0/expect', apply: (item) => edit(item, (c) => void delete exchange0(c).expect) },
  { name: 'missing: response', pointer: '/exchanges/0/response', apply: (item) => edit(item, (c) => void delete exchange0(c).response) },
  { name: 'unknown field at the root', pointer: '/exchange', apply: (item) => edit(item, (c) => void (c.exchange = [])) },
  { name: 'unknown field in a response', pointer: '/exchanges/0/response/stauts', apply: (item) => edit(item, (c) => void ((exchange0(c).response as Json).stauts = 200)) },
  { name: 'broken JSON: cut in half', pointer: undefined, apply: (_item, text) => text.slice(0, Math.floor(text.length / 2)) },
  { name: 'broken JSON: trailing comma', pointer: undefined, apply: (_item, text) => text.replace(/\}\s*$/, ',}') },
  { name: 'broken JSON: empty file', pointer: undefined, apply: () => '' },
  { name: 'id differs from the file name', pointer: '/id', apply: (item) => edit(item, (c) => void (c.id = `${item.id}-renamed`)) },
  {
    name: 'bad reference: expectByVersion for a version not in versions',
    pointer: '/exchanges/0/expectByVersion/',
    apply: (item) =>
      edit(item, (c) => {
        const [kept, dropped] = item.versions.length > 1 ? [item.versions[0]!, item.versions[1]!] : [item.versions[0]!, PROTOCOL_VERSIONS.find((v) => v !== item.versions[0])!];
        c.versions = [kept];
        exchange0(c).expectByVersion = { ...((exchange0(c).expectByVersion as Json | undefined) ?? {}), [dropped]: { outcome: 'TOOL_ERROR' } };
      }),
  },
  {
    name: 'duplicate id in another file',
    pointer: '/id',
    apply: (_item, text) => text,
    extraFile: (item) => ({ path: `${item.layer}/copy/${item.id}.json`, text: JSON.stringify(item) }),
  },
];
