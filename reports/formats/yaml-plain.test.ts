import { describe, expect, it } from 'vitest';
import { loadYaml } from '../../runner/util/lazy-yaml.js';
import { stringifyPlainEntry } from './yaml-plain.js';

const viaYaml = (key: string, value: unknown) => loadYaml().stringify({ [key]: value }, { lineWidth: 0 });

// A small deterministic generator (no Math.random: a failure must reproduce).
function* makeStrings(count: number, alphabet: string): Generator<string> {
  let seed = 16;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < count; i++) {
    const length = 1 + (next() % 24);
    let text = '';
    for (let j = 0; j < length; j++) text += alphabet[next() % alphabet.length];
    yield text;
  }
}

describe('stringifyPlainEntry', () => {
  it('writes a repro line exactly as the yaml package does', () => {
    const repro = 'npx mcp-error-matrix run --case synthetic.case-1 --target command:node ./x.js#persistent --version 2025-11-25';
    expect(stringifyPlainEntry('repro', repro)).toBe(viaYaml('repro', repro));
  });

  it('refuses what YAML would read as another type or structure', () => {
    for (const value of ['true', 'NULL', 'False', 'a: b', 'a #b', 'a:', 'a ', 'a  b', '1e3', '-a', '.inf', '~', '', 'é', 'a\nb', '"a"', "'a", 'a[0]', 'a{b}', 'a|b', 'a%b', 'a!b', 'a*b', 'a&b']) {
      expect(stringifyPlainEntry('repro', value), JSON.stringify(value)).toBeUndefined();
    }
    expect(stringifyPlainEntry('repro', 3)).toBeUndefined();
    expect(stringifyPlainEntry('a: b', 'x')).toBeUndefined();
  });

  it('agrees with the yaml package on every string it accepts (20,000 generated strings)', () => {
    let accepted = 0;
    for (const value of makeStrings(20_000, 'aZ9 ._/@=+,~:#-tfnuleTFNUL')) {
      const fast = stringifyPlainEntry('repro', value);
      if (fast === undefined) continue;
      accepted++;
      expect(fast, JSON.stringify(value)).toBe(viaYaml('repro', value));
    }
    // The test means something only if the fast path was taken often.
    expect(accepted).toBeGreaterThan(2_000);
  });
});
