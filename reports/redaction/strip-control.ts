// Terminal escapes and characters no report format may carry, removed in one linear scan.
// C0 controls except tab/newline/carriage return, DEL, C1 controls (U+0080–U+009F, U+009B the
// 8-bit CSI among them), lone surrogates and the two non-characters XML 1.0 forbids.
const ANY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;

/**
 * Remove ANSI escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL or ESC \\`, any other
 * two-character ESC sequence, the 8-bit CSI U+009B … final) and characters that are invalid in
 * XML 1.0 or unprintable (see ANY_CONTROL). One linear scan, no regex over the text.
 */
export function stripControl(text: string): string {
  // Every ANSI sequence starts with ESC or U+009B, both in this class: one scan for clean text.
  if (!ANY_CONTROL.test(text)) return text;
  const parts: string[] = [];
  let kept = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    let end: number;
    if (code === 0x1b) end = skipEscape(text, i);
    else if (code === 0x9b) end = skipCsi(text, i + 1) ?? i + 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i += 2;
        continue;
      }
      end = i + 1;
    } else if (isControlCode(code)) end = i + 1;
    else {
      i++;
      continue;
    }
    if (i > kept) parts.push(text.slice(kept, i));
    i = end;
    kept = end;
  }
  if (kept < text.length) parts.push(text.slice(kept));
  return parts.join('');
}

// Lone low surrogates are controls here: a paired one was skipped with its high half.
function isControlCode(code: number): boolean {
  return (code <= 0x1f && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f) || (code >= 0xdc00 && code <= 0xdfff) || code === 0xfffe || code === 0xffff;
}

// Where the ESC sequence starting at `start` ends.
function skipEscape(text: string, start: number): number {
  const next = text.charCodeAt(start + 1);
  if (next === 0x5b) return skipCsi(text, start + 2) ?? start + 2; // ESC [ : a CSI, or a bare two-character sequence
  if (next === 0x5d) {
    // OSC: up to BEL or ESC \ (or the end of the text).
    for (let i = start + 2; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x07) return i + 1;
      if (code === 0x1b) return text.charCodeAt(i + 1) === 0x5c ? i + 2 : i;
    }
    return text.length;
  }
  return next >= 0x40 && next <= 0x5f ? start + 2 : start + 1;
}

// A CSI body (parameters 0x30–0x3F, intermediates 0x20–0x2F, one final 0x40–0x7E) from `from`; its end, or undefined without a final.
function skipCsi(text: string, from: number): number | undefined {
  let i = from;
  while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
  while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
  const final = text.charCodeAt(i);
  return final >= 0x40 && final <= 0x7e ? i + 1 : undefined;
}
