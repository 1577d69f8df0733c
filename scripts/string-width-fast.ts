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
 * Latin (no combining marks), general punctuation, arrows, box drawing and geometric shapes.
 * None of them is a mark, joiner, variation selector or Prepend character.
 */
export function isLoneCluster(code: number): boolean {
  return (
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa0 && code <= 0x2ff) ||
    (code >= 0x2010 && code <= 0x2027) ||
    (code >= 0x2030 && code <= 0x205e) ||
    (code >= 0x2190 && code <= 0x21ff) ||
    (code >= 0x2500 && code <= 0x25ff)
  );
}

/** Widths of the lone clusters met (a few hundred code points at most). */
const widths = new Map<string, number>();

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
 * The width string-width gives `input`.
 *
 * @example
 * fastStringWidth('\x1b[1m•\x1b[22m item'); // 6
 */
export default function fastStringWidth(input: string, options?: Options): number {
  if (options !== undefined || typeof input !== 'string') return stringWidth(input, options);
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
    const character = input.charAt(i);
    let cells = widths.get(character);
    if (cells === undefined) {
      cells = stringWidth(character);
      widths.set(character, cells);
    }
    width += cells;
  }
  return width;
}
