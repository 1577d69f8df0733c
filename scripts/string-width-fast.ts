/**
 * `string-width` for the acp bundle: scripts/bundle.ts routes every import of `string-width`
 * (Ink's layout and output, widest-line, wrap-ansi, cli-truncate) here. Widths are the same; a
 * text made only of code points that are a grapheme cluster of their own (see
 * {@link isLoneCluster}) and SGR sequences is measured without the grapheme segmenter, which
 * string-width runs on any text that is not plain ASCII: a bullet or a box-drawing character in a
 * line made it segment the whole line (an object per character) each time the line changed.
 */
import stringWidth from 'string-width';

type Options = Parameters<typeof stringWidth>[1];

/**
 * Code points that are a grapheme cluster of their own next to any other of them: printable ASCII,
 * Latin (no combining marks), general punctuation, and the symbol blocks from letterlike symbols
 * to miscellaneous symbols and arrows (U+2100-U+2BFF: arrows, mathematical and technical
 * symbols, box drawing, shapes, dingbats, braille: the UI's status marks and spinner). None of
 * them is a mark, joiner, variation selector or Prepend character.
 */
export function isLoneCluster(code: number): boolean {
  return (
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa0 && code <= 0x2ff) ||
    (code >= 0x2010 && code <= 0x2027) ||
    (code >= 0x2030 && code <= 0x205e) ||
    (code >= 0x2100 && code <= 0x2bff)
  );
}

/**
 * The lone clusters string-width counts as two cells (East Asian wide, or emoji shown as such),
 * as runs of code points: what string-width 8 gives each of them alone.
 */
const WIDE_RUNS = [
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2630, 0x2637],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x268a, 0x268f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
] as const;
const WIDE = new Set<number>();
for (const [from, to] of WIDE_RUNS) for (let code = from; code <= to; code++) WIDE.add(code);

/**
 * The width string-width gives a lone cluster alone: one cell, none for the soft hyphen (U+00AD,
 * default-ignorable), two for {@link WIDE_RUNS}. Known without asking string-width, whose first
 * call starts the grapheme segmenter and compiles its emoji expression (~10 ms of every start, as
 * soon as the first frame's `●` was measured), and which segments the whole text of any line with
 * a spinner or a status mark each time it changes. string-width-fast.test.ts checks every lone
 * cluster against string-width.
 */
export function loneClusterWidth(code: number): number {
  if (code === 0xad) return 0;
  return WIDE.has(code) ? 2 : 1;
}

/** Index just past the SGR sequence (`ESC [` digits and semicolons `m`) at `start`, or -1. */
function sgrEnd(text: string, start: number): number {
  if (text.charCodeAt(start + 1) !== 0x5b) return -1;
  let end = start + 2;
  for (; end < text.length; end++) {
    const code = text.charCodeAt(end);
    if (code !== 0x3b && (code < 0x30 || code > 0x39)) break;
  }
  return text.charCodeAt(end) === 0x6d ? end + 1 : -1;
}

/**
 * Whether string-width measures `input` with `options` as it does without: ambiguous characters
 * narrow, and escape sequences either not counted or absent (a text without ESC or CSI has none
 * to strip; the UI's wrapper measures its words so, escapes taken out beforehand).
 */
function sameAsDefault(input: string, options: NonNullable<Options>): boolean {
  if (options.ambiguousIsNarrow === false) return false;
  return options.countAnsiEscapeCodes !== true || !(input.includes('\x1b') || input.includes('\x9b'));
}

/**
 * The width string-width gives `input`.
 *
 * @example
 * fastStringWidth('\x1b[1m•\x1b[22m item'); // 6
 */
export default function fastStringWidth(input: string, options?: Options): number {
  if (typeof input !== 'string' || (options !== undefined && !sameAsDefault(input, options)))
    return stringWidth(input, options);
  let width = 0;
  for (let i = 0; i < input.length; i++) {
    const code = input.charCodeAt(i);
    if (code >= 0x20 && code <= 0x7e) {
      width++;
      continue;
    }
    if (code === 0x1b) {
      // string-width strips escape sequences first: an SGR sequence counts for nothing.
      const end = sgrEnd(input, i);
      if (end < 0) return stringWidth(input);
      i = end - 1;
      continue;
    }
    if (!isLoneCluster(code)) return stringWidth(input);
    width += loneClusterWidth(code);
  }
  return width;
}
