// The one-line command that reruns a single cell.
import type { ProtocolVersion } from '../types.js';

/** A shell command that reruns one cell, safe to paste (arguments single-quoted when needed). */
export function buildReproCommand(options: { caseId: string; target: string; protocolVersion: ProtocolVersion; mode: 'http' | 'direct' }): string {
  const parts = ['npx', 'mcp-error-matrix', 'run', '--target', options.target, '--case', options.caseId, '--version', options.protocolVersion];
  if (options.mode === 'direct') parts.push('--mode', 'direct');
  return parts.map(quoteShellWord).join(' ');
}

function quoteShellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
