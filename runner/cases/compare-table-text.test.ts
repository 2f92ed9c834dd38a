import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { compareTableText } from './compare-table-text.js';

describe('compareTableText', () => {
  it('orders plain ids and paths exactly as English collation does', () => {
    const plain = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-./'), maxLength: 12 });
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        expect(Math.sign(compareTableText(a, b))).toBe(Math.sign(a.localeCompare(b, 'en')));
      }),
      { numRuns: 20_000 },
    );
  });

  it('falls back to English collation for anything else (capitals, underscores, accents)', () => {
    for (const [a, b] of [['B', 'a'], ['a_b', 'a-b'], ['é', 'f'], ['Case', 'case']] as const) {
      expect(Math.sign(compareTableText(a, b))).toBe(Math.sign(a.localeCompare(b, 'en')));
    }
    expect(compareTableText('B', 'a')).toBeGreaterThan(0); // code points would put B first
  });

  it('orders the same whatever the machine\'s locale: a process under LANG=lt_LT sorts as one under en_US', () => {
    // Lithuanian collation puts y between i and j; the table's order must not follow it.
    const ids = ['y-case', 'j-case', 'i-case', 'Y_case', 'J_case', 'z-case', 'k-case'];
    // This module's source, compiled alone (it imports nothing), run in a process of its own: a locale is fixed at process start.
    const source = readFileSync(new URL('./compare-table-text.ts', import.meta.url), 'utf8');
    const module = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const script = `${module}\nconsole.log(JSON.stringify(${JSON.stringify(ids)}.sort(compareTableText)));`;
    const sortUnder = (locale: string) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, LANG: locale, LC_ALL: locale }, encoding: 'utf8' })) as string[];
    const english = [...ids].sort((a, b) => a.localeCompare(b, 'en'));
    expect(sortUnder('lt_LT.UTF-8')).toEqual(english);
    expect(sortUnder('en_US.UTF-8')).toEqual(english);
  });
});
