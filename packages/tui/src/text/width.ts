/**
 * Terminal display width of text, as `string-width` measures it (the library Ink lays out with):
 * grapheme clusters, so emoji (✅, 🚀, ZWJ sequences, VS16 forms) and wide East Asian characters
 * take two cells, combining marks and control characters none.
 *
 * It runs on every line of a streamed message, and string-width segments graphemes (~10-20 µs for
 * a line of CJK or emoji). So characters that are a cluster of their own whatever surrounds them
 * are counted here, only the stretches around the others go to string-width, and its answers are
 * remembered (bounded) since the same lines come back on every update.
 */
import stringWidth from 'string-width';

/** Emoji drawn as emoji by default (✅ ❌ 🚀): two cells when nothing joins them. */
const EMOJI_PRESENTATION = /\p{Emoji_Presentation}/uy;
/** Any emoji: followed by VS16 (⚠️ ✔️ ❤️), drawn as emoji, in two cells. */
const EMOJI = /\p{Emoji}/uy;
const VS16 = 0xfe0f;

/** Whether the code point at `index` is an emoji (not a component such as a digit or modifier). */
function isEmojiBase(code: number, text: string, index: number): boolean {
  if (code < 0xa0 || (code >= 0x1f1e6 && code <= 0x1f1ff) || (code >= 0x1f3fb && code <= 0x1f3ff))
    return false;
  EMOJI.lastIndex = index;
  return EMOJI.test(text);
}

/**
 * Cells of the code point `code` at `index` of `text` when it forms a grapheme cluster on its own
 * next to any other such code point, or -1. None of these is a mark, joiner, variation selector,
 * Prepend, Hangul jamo, regional indicator or skin-tone modifier, and the only Extended_Pictographic
 * ones are emoji that a cluster can only extend through one of those: so only a neighbour outside
 * this set can join one into a longer cluster.
 */
function simpleCells(code: number, text: string, index: number): number {
  if (code < 0x7f) return code >= 0x20 ? 1 : 0;
  if (code < 0xa0) return 0;
  if (code <= 0x24f) return code === 0xa9 || code === 0xad || code === 0xae ? -1 : 1;
  if (code < 0x2010) return -1;
  if (code <= 0x2027) return 1;
  if (code < 0x231a) return -1;
  if (code < 0x3000) return emojiCells(text, index);
  if (code <= 0x3029 || (code >= 0x3031 && code <= 0x303c)) return 2;
  if ((code >= 0x3041 && code <= 0x3096) || (code >= 0x309b && code <= 0x30ff)) return 2;
  if ((code >= 0x3400 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0x9fff)) return 2;
  if ((code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff)) return 2;
  if ((code >= 0xff01 && code <= 0xff60) || (code >= 0xffe0 && code <= 0xffe6)) return 2;
  if ((code >= 0x20000 && code <= 0x2fffd) || (code >= 0x30000 && code <= 0x3fffd)) return 2;
  if (code < 0x1f000 || (code >= 0x1f1e6 && code <= 0x1f1ff) || (code >= 0x1f3fb && code <= 0x1f3ff))
    return -1;
  return emojiCells(text, index);
}

function emojiCells(text: string, index: number): number {
  EMOJI_PRESENTATION.lastIndex = index;
  return EMOJI_PRESENTATION.test(text) ? 2 : -1;
}

/**
 * Number of terminal cells `text` occupies on one line.
 *
 * Each run of other code points is measured by string-width together with one simple neighbour
 * on each side (the base a mark attaches to, or what a Prepend or jamo joins): two simple code
 * points in a row always have a cluster boundary between them, so the pieces add up. The runs go
 * to string-width in one call, joined by line feeds (a cluster boundary on both sides).
 *
 * @example
 * displayWidth('✅ done'); // 7
 * displayWidth('日本'); // 4
 */
export function displayWidth(text: string): number {
  // string-width strips escape sequences first; they span many characters of any kind.
  if (text.includes('\x1b') || text.includes('\x9b')) return stringWidth(text);
  let width = 0;
  let slow = '';
  /** Start of the stretch left to string-width, or -1. */
  let slowStart = -1;
  /** Whether the stretch already took the simple code point that follows it. */
  let tailTaken = false;
  let previousStart = -1;
  let previousCells = 0;
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i) as number;
    let size = code > 0xffff ? 2 : 1;
    let cells = simpleCells(code, text, i);
    // An emoji with VS16 is one cluster of two cells, unless something joins it (seen next).
    if (text.charCodeAt(i + size) === VS16 && isEmojiBase(code, text, i)) {
      cells = 2;
      size++;
    }
    if (cells < 0) {
      if (slowStart < 0) {
        // The simple code point before may be the base of this cluster: measure it along.
        if (previousStart >= 0) width -= previousCells;
        slowStart = previousStart >= 0 ? previousStart : i;
      }
      tailTaken = false;
    } else if (slowStart >= 0 && !tailTaken) {
      tailTaken = true;
    } else {
      if (slowStart >= 0) {
        slow += `${text.slice(slowStart, i)}\n`;
        slowStart = -1;
      }
      width += cells;
      previousStart = i;
      previousCells = cells;
      i += size;
      continue;
    }
    previousStart = -1;
    i += size;
  }
  if (slowStart >= 0) slow += text.slice(slowStart);
  return slow === '' ? width : width + segmentedWidth(slow);
}

/** Streamed lines are measured again on every update: remember what the segmenter said. */
const segmented = new Map<string, number>();
const MAX_REMEMBERED = 1024;

function segmentedWidth(text: string): number {
  let width = segmented.get(text);
  if (width === undefined) {
    width = stringWidth(text);
    if (segmented.size >= MAX_REMEMBERED) segmented.clear();
    segmented.set(text, width);
  }
  return width;
}

/**
 * Rows a text takes at `width` columns: an estimate for text not laid out beforehand (Ink wraps
 * at words, so a line may take a row more; Markdown adds a little).
 *
 * @example
 * estimateRows('one\ntwo', 80); // 2
 */
export function estimateRows(text: string, width: number): number {
  const columns = Math.max(10, width);
  let rows = 0;
  for (const line of text.split('\n')) rows += Math.max(1, Math.ceil(displayWidth(line) / columns));
  return rows;
}
