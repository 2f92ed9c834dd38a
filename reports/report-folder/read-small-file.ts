// Reads a small file the tool wrote itself (marker, lock) from a folder someone else may
// control: the bounded reader of user-supplied files, never through a symlink.
import { readUserText } from '../../runner/io/read-user-file.js';

/** The file's text, or undefined when it is absent, a symlink, not a regular file, larger than maxBytes or not UTF-8. */
export async function readSmallFile(path: string, maxBytes: number): Promise<string | undefined> {
  try {
    return await readUserText(path, { maxBytes, what: 'file', noFollow: true });
  } catch {
    return undefined;
  }
}
