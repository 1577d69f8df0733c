/**
 * Writing long texts without copying them whole: a file handle encodes a string it is given at
 * once, so a 60 MiB text written in one call costs a 60 MiB buffer (and, for a concatenation, a
 * flattened copy first). Written slice by slice, each slice is encoded only when the previous one
 * is on disk.
 */
import type { FileHandle } from 'node:fs/promises';

/** Texts longer than this are written in slices of this size. */
export const LONG_TEXT_CHARS = 1024 * 1024;

/**
 * A string written as the inside of a JSON string literal (escaped, without its quotes), one slice
 * at a time: a record line can then carry a message of tens of MiB without a serialised copy of
 * it (`JSON.stringify` of the whole line builds one in parts, then flattens it: twice its size).
 */
export class JsonStringBody {
  constructor(readonly text: string) {}

  /** Its length before escaping (what a batch counts). */
  get length(): number {
    return this.text.length;
  }
}

/** What {@link appendTexts} writes: text as it is, or a {@link JsonStringBody}. */
export type Text = string | JsonStringBody;

/** The length of `texts` together (what {@link LineBatch.settled} is told once they are written). */
export function textsLength(texts: readonly Text[]): number {
  let length = 0;
  for (const text of texts) length += text.length;
  return length;
}

/**
 * Appends `texts` to `handle` in order; a long text (and every {@link JsonStringBody}) in slices of
 * {@link LONG_TEXT_CHARS} (never between the two halves of a surrogate pair), each encoded (and
 * escaped) only when the previous one is written.
 */
export async function appendTexts(handle: FileHandle, texts: readonly Text[]): Promise<void> {
  for (const text of texts) {
    if (typeof text === 'string') {
      if (text.length <= LONG_TEXT_CHARS) await handle.write(text);
      else for (const slice of slices(text)) await handle.write(slice);
      continue;
    }
    // A slice never splits a surrogate pair, so escaping it alone gives what escaping the whole
    // text gives for that part (JSON.stringify escapes only lone surrogates).
    for (const slice of slices(text.text)) await handle.write(JSON.stringify(slice).slice(1, -1));
  }
}

/** `text` in slices of at most {@link LONG_TEXT_CHARS}, none ending between a surrogate pair's halves. */
function* slices(text: string): Generator<string> {
  let from = 0;
  while (from < text.length) {
    let to = Math.min(text.length, from + LONG_TEXT_CHARS);
    const last = text.charCodeAt(to - 1);
    if (to < text.length && last >= 0xd800 && last <= 0xdbff) to--;
    yield text.slice(from, to);
    from = to;
  }
}
