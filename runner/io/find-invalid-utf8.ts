// Where bytes stop being UTF-8: the offset of the first byte that starts no valid sequence
// (overlong forms, surrogates and code points past U+10FFFF included, as the WHATWG decoder's fatal mode).
import { isUtf8 } from 'node:buffer';

/** Byte offset of the first invalid UTF-8 sequence, or undefined when every byte is valid. */
export function findInvalidUtf8(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  let index = 0;
  while (index < bytes.length) {
    const length = getSequenceLength(bytes, index);
    if (length === 0) return index;
    index += length;
  }
  return undefined;
}

// Length of the valid sequence starting at `index`, 0 when none starts there (RFC 3629 table 3-7).
function getSequenceLength(bytes: Uint8Array, index: number): number {
  const first = bytes[index]!;
  if (first < 0x80) return 1;
  const isTail = (offset: number, low = 0x80, high = 0xbf) => {
    const byte = bytes[index + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (first >= 0xc2 && first <= 0xdf) return isTail(1) ? 2 : 0;
  if (first === 0xe0) return isTail(1, 0xa0) && isTail(2) ? 3 : 0;
  if (first === 0xed) return isTail(1, 0x80, 0x9f) && isTail(2) ? 3 : 0;
  if (first >= 0xe1 && first <= 0xef) return isTail(1) && isTail(2) ? 3 : 0;
  if (first === 0xf0) return isTail(1, 0x90) && isTail(2) && isTail(3) ? 4 : 0;
  if (first >= 0xf1 && first <= 0xf3) return isTail(1) && isTail(2) && isTail(3) ? 4 : 0;
  if (first === 0xf4) return isTail(1, 0x80, 0x8f) && isTail(2) && isTail(3) ? 4 : 0;
  return 0;
}
