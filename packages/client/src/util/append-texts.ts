/**
 * Writing long texts without copying them whole: a file handle encodes a string it is given at
 * once, so a 60 MiB text written in one call costs a 60 MiB buffer (and, for a concatenation, a
 * flattened copy first). Written slice by slice, each slice is encoded only when the previous one
 * is on disk.
 */
import type { FileHandle } from 'node:fs/promises';

/** Texts longer than this are written in slices of this size. */
export const LONG_TEXT_CHARS = 1024 * 1024;

/** The length of `texts` together (what {@link LineBatch.settled} is told once they are written). */
export function textsLength(texts: readonly string[]): number {
  let length = 0;
  for (const text of texts) length += text.length;
  return length;
}

/**
 * Appends `texts` to `handle` in order; a long text in slices of {@link LONG_TEXT_CHARS} (never
 * between the two halves of a surrogate pair), each encoded only when the previous one is written.
 */
export async function appendTexts(handle: FileHandle, texts: readonly string[]): Promise<void> {
  for (const text of texts) {
    if (text.length <= LONG_TEXT_CHARS) {
      await handle.write(text);
      continue;
    }
    let from = 0;
    while (from < text.length) {
      let to = Math.min(text.length, from + LONG_TEXT_CHARS);
      const last = text.charCodeAt(to - 1);
      if (to < text.length && last >= 0xd800 && last <= 0xdbff) to--;
      await handle.write(text.slice(from, to));
      from = to;
    }
  }
}
