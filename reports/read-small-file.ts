// Reads a small file the tool wrote itself (marker, lock) from a folder someone else may
// control: never through a symlink, never blocking on a FIFO, never more than `maxBytes`.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** The file's text, or undefined when it is absent, not a regular file, or larger than maxBytes. */
export async function readSmallFile(path: string, maxBytes: number): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    // Read until the end: files under /proc report size 0 and may come in several reads.
    const buffer = Buffer.alloc(maxBytes + 1);
    let used = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, used, buffer.length - used, used);
      if (bytesRead === 0) break;
      used += bytesRead;
      if (used > maxBytes) return undefined;
    }
    return buffer.subarray(0, used).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
