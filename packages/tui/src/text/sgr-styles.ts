/**
 * The SGR sequences chalk writes (`ESC[n m`, `ESC[38;5;n m`, `ESC[38;2;r;g;b m` and their
 * background forms) as wrap-ansi understands them: which styles each opens and closes, and the
 * styles open at a row break closed on that row and opened again on the next (wrap-styled.ts).
 */

/** The pattern of one SGR sequence of the forms handled here (a code; a 256-colour; an RGB colour). */
export const SGR_PATTERN = String.raw`\x1b\[(?:(\d+)|([34]8);5;(\d+)|([34]8);2;(\d+);(\d+);(\d+))m`;
/** One such sequence, at the sticky position. */
export const SGR = new RegExp(SGR_PATTERN, 'y');

/** An open style as wrap-ansi tracks it: its family (one of each is open), open and close codes. */
interface Style {
  readonly family: string;
  readonly open: string;
  readonly close: number;
}

/** The codes that close modifiers (ansi-styles' close codes, less the reset). */
const MODIFIER_CLOSES = new Set([22, 23, 24, 55, 27, 28, 29, 39, 49]);
/** Modifiers ansi-styles knows: open → close. */
const MODIFIERS = new Map([
  [1, 22],
  [2, 22],
  [3, 23],
  [4, 24],
  [53, 55],
  [7, 27],
  [8, 28],
  [9, 29],
]);

/** An SGR sequence, parsed. */
export interface Sgr {
  readonly sgr: string;
  /** Its effect on the open styles. */
  readonly apply: (styles: Style[]) => void;
  /** Its resets only (what a sequence at the start of a row takes off the styles reopened). */
  readonly resets: (styles: Style[]) => void;
}

function remove(styles: Style[], family: string): void {
  const index = styles.findIndex((style) => style.family === family);
  if (index !== -1) styles.splice(index, 1);
}

function upsert(styles: Style[], style: Style): void {
  remove(styles, style.family);
  styles.push(style);
}

/** Applies a reset code; whether `code` is one. */
function reset(styles: Style[], code: number): boolean {
  if (code === 0) styles.length = 0;
  else if (code === 39) remove(styles, 'foreground');
  else if (code === 49) remove(styles, 'background');
  else if (code === 59) remove(styles, 'underlineColor');
  else if (MODIFIER_CLOSES.has(code)) {
    for (let i = styles.length - 1; i >= 0; i--) {
      const style = styles[i] as Style;
      if (style.family.startsWith('modifier-') && style.close === code) styles.splice(i, 1);
    }
  } else return false;
  return true;
}

function colorStyle(code: number, open: string, extended: boolean): Style | undefined {
  if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97) || (code === 38 && extended))
    return { family: 'foreground', open, close: 39 };
  if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107) || (code === 48 && extended))
    return { family: 'background', open, close: 49 };
  return undefined;
}

/** The effect of the sequence `SGR` just matched, as wrap-ansi applies it. */
function sgrPart(match: RegExpExecArray): Sgr {
  const [sgr, single, c256, index, cRgb, r, g, b] = match;
  if (single !== undefined) {
    const code = Number(single);
    // What the code does is decided once here, not each time a row applies it.
    if (reset([], code)) {
      const resets = (styles: Style[]) => void reset(styles, code);
      return { sgr, apply: resets, resets };
    }
    const open = String(code);
    const close = MODIFIERS.get(code);
    const style =
      colorStyle(code, open, false) ??
      (close !== undefined ? { family: `modifier-${code}`, open, close } : undefined);
    return {
      sgr,
      apply: style ? (styles) => upsert(styles, style) : () => undefined,
      resets: () => undefined,
    };
  }
  const code = Number(c256 ?? cRgb);
  const open =
    c256 !== undefined ? `${code};5;${Number(index)}` : `${code};2;${Number(r)};${Number(g)};${Number(b)}`;
  const style = colorStyle(code, open, true) as Style;
  return { sgr, apply: (styles) => upsert(styles, style), resets: () => undefined };
}

/** Sequences parsed: a theme writes the same few again and again. */
const parsed = new Map<string, Sgr>();
const MAX_PARSED = 256;

/** The sequence `SGR` just matched, parsed once. */
export function parsedSgr(match: RegExpExecArray): Sgr {
  let part = parsed.get(match[0]);
  if (!part) {
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(match[0], (part = sgrPart(match)));
  }
  return part;
}

/** A row of wrapped text: its text and the sequences in it. */
export interface StyledRow {
  readonly value: string;
  /** The sequences in the row, in order. */
  readonly codes: readonly Sgr[];
  /** The sequences before its first character. */
  readonly lead: readonly Sgr[];
}

/** Closes the styles open at each row break and opens them again on the next row, as wrap-ansi does. */
export function restoreStyles(rows: readonly StyledRow[]): string[] {
  const styles: Style[] = [];
  const out: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as StyledRow;
    let value = row.value;
    // An empty row reopens nothing (and closes nothing).
    if (i > 0 && value !== '') {
      const opening = [...styles];
      for (const code of row.lead) code.resets(opening);
      value = opening.map((style) => `\x1b[${style.open}m`).join('') + value;
    }
    // The last row's sequences open nothing that is closed or reopened after it.
    if (i < rows.length - 1) for (const code of row.codes) code.apply(styles);
    if (i < rows.length - 1 && row.value !== '')
      value += [...styles]
        .reverse()
        .map((style) => `\x1b[${style.close}m`)
        .join('');
    out.push(value);
  }
  return out;
}
