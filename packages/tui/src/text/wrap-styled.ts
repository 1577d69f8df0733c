/**
 * Hard wrapping of text styled with SGR codes, byte for byte what
 * `wrapAnsi(text, width, { trim: false, hard: true })` gives (the layout Ink draws a `<Text>`
 * with), in a fraction of its time on answers full of styled spans.
 *
 * wrap-ansi re-parses every escape sequence several times (splitting words, measuring, then
 * restoring styles across rows through a generic SGR parser). Here a line is parsed once into
 * words of plain text and the codes chalk writes (`ESC[n m`, `ESC[38;5;n m`, `ESC[38;2;r;g;b m`
 * and their background forms); rows are built by wrap-ansi's rules and the styles open at each
 * row break are closed and reopened as it does. Text with anything else (tabs, carriage returns,
 * other sequences, OSC 8 links, 8-bit CSI) goes to wrap-ansi itself, so the result never differs.
 */
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';

/** One SGR sequence of the forms handled here, at the sticky position. */
// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[(?:(\d+)|([34]8);5;(\d+)|([34]8);2;(\d+);(\d+);(\d+))m/y;
/** What sends a text to wrap-ansi: tabs and CRs (expanded/removed there), BEL, 8-bit CSI. */
// eslint-disable-next-line no-control-regex
const UNUSUAL = /[\t\r\x07\x9b]/;
const ASCII_PRINTABLE = /^[ -~]*$/;
/** Printable ASCII and escapes: never more columns than characters (an escape takes none). */
// eslint-disable-next-line no-control-regex
const ASCII_OR_ESCAPE = /^[\x1b -~]*$/;

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
interface Sgr {
  readonly sgr: string;
  /** Its effect on the open styles. */
  readonly apply: (styles: Style[]) => void;
  /** Its resets only (what a sequence at the start of a row takes off the styles reopened). */
  readonly resets: (styles: Style[]) => void;
}
/** Plain text (a string: most parts are, and a string costs no object of its own) or a sequence. */
type Part = string | Sgr;

interface Word {
  /** Plain text and sequences, in order. */
  readonly parts: Part[];
  plain: string;
}

interface Row {
  value: string;
  plain: string;
  /** The sequences in the row, in order. */
  readonly codes: Sgr[];
  /** The sequences before its first character. */
  readonly lead: Sgr[];
}

const segmenter = new Intl.Segmenter();

function newRow(): Row {
  return { value: '', plain: '', codes: [], lead: [] };
}

function width(plain: string): number {
  return ASCII_PRINTABLE.test(plain) ? plain.length : stringWidth(plain, { countAnsiEscapeCodes: true });
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
    const open = String(code);
    return {
      sgr,
      apply: (styles) => {
        if (reset(styles, code)) return;
        const color = colorStyle(code, open, false);
        if (color) return upsert(styles, color);
        const close = MODIFIERS.get(code);
        if (close !== undefined) upsert(styles, { family: `modifier-${code}`, open, close });
      },
      resets: (styles) => void reset(styles, code),
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

/** Adds a run of plain text to the words (a space starts the next word); whether it is printable ASCII. */
function addPlain(all: Word[], text: string): boolean {
  const simple = ASCII_PRINTABLE.test(text);
  const pieces = (simple ? text : text.normalize()).split(' ');
  let word = all[all.length - 1] as Word;
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) all.push((word = { parts: [], plain: '' }));
    const piece = pieces[i] as string;
    if (piece !== '') {
      word.parts.push(piece);
      word.plain += piece;
    }
  }
  return simple;
}

/**
 * The words of one line (split at spaces, sequences kept with the word they are in) and whether
 * its text is all printable ASCII, or undefined when a sequence is not one handled here.
 */
function words(line: string): { words: Word[]; ascii: boolean } | undefined {
  const all: Word[] = [{ parts: [], plain: '' }];
  let ascii = true;
  let start = 0;
  for (let at = line.indexOf('\x1b'); at !== -1; at = line.indexOf('\x1b', start)) {
    SGR.lastIndex = at;
    const match = SGR.exec(line);
    if (!match) return undefined;
    if (at > start) ascii = addPlain(all, line.slice(start, at)) && ascii;
    let part = parsed.get(match[0]);
    if (!part) {
      if (parsed.size >= MAX_PARSED) parsed.clear();
      parsed.set(match[0], (part = sgrPart(match)));
    }
    (all[all.length - 1] as Word).parts.push(part);
    start = at + match[0].length;
  }
  if (start < line.length) ascii = addPlain(all, line.slice(start)) && ascii;
  return { words: all, ascii };
}

function append(row: Row, part: Part): void {
  if (typeof part === 'string') {
    row.value += part;
    row.plain += part;
  } else {
    row.value += part.sgr;
    row.codes.push(part);
    if (row.plain === '') row.lead.push(part);
  }
}

/** wrap-ansi's `wrapWord`: a word wider than the row, cluster by cluster; the width of the row it ends on. */
function wrapWord(rows: Row[], word: Word, columns: number, rowWidth: number): number {
  let visible = rowWidth;
  let row = rows[rows.length - 1] as Row;
  const { parts } = word;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p] as Part;
    if (typeof part !== 'string') {
      append(row, part);
      continue;
    }
    // Printable ASCII: a cluster per character, as many as the row takes in one piece.
    if (ASCII_PRINTABLE.test(part)) {
      for (let at = 0; at < part.length;) {
        if (visible >= columns) {
          rows.push((row = newRow()));
          visible = 0;
        }
        const taken = Math.min(columns - visible, part.length - at);
        append(row, part.slice(at, at + taken));
        visible += taken;
        at += taken;
        // A full row ends here unless the word ends with it (its last cluster or sequence).
        if (visible === columns && (at < part.length || p < parts.length - 1)) {
          rows.push((row = newRow()));
          visible = 0;
        }
      }
      continue;
    }
    const clusters = [...segmenter.segment(part)];
    for (let i = 0; i < clusters.length; i++) {
      const cluster = (clusters[i] as Intl.SegmentData).segment;
      const clusterWidth = stringWidth(cluster, { countAnsiEscapeCodes: true });
      if (clusterWidth > 0 && visible > 0 && visible + clusterWidth > columns) {
        rows.push((row = newRow()));
        visible = 0;
      }
      append(row, cluster);
      visible += clusterWidth;
      if (visible === columns && (i < clusters.length - 1 || p < parts.length - 1)) {
        rows.push((row = newRow()));
        visible = 0;
      }
    }
  }
  // A last row of sequences only goes back onto the row before, as wrap-ansi does.
  if (!visible && row.value.length > 0 && rows.length > 1) {
    rows.pop();
    const before = rows[rows.length - 1] as Row;
    before.value += row.value;
    before.plain += row.plain;
    if (before.plain === '') before.lead.push(...row.lead);
    before.codes.push(...row.codes);
    row = before;
  }
  return width(row.plain);
}

/**
 * The rows of a line of printable ASCII without sequences: what {@link wrapLine} makes of it, on
 * strings alone (nothing to reopen on the next row, a cluster per character).
 */
function wrapPlainAscii(line: string, columns: number): string[] {
  const rows: string[] = [];
  let row = '';
  let rowLength = 0;
  const pieces = line.split(' ');
  for (let w = 0; w < pieces.length; w++) {
    const word = pieces[w] as string;
    if (w > 0) {
      if (rowLength >= columns) {
        rows.push(row);
        row = '';
        rowLength = 0;
      }
      row += ' ';
      rowLength++;
    }
    if (word.length > columns) {
      const remaining = columns - rowLength;
      const breaksThisRow = 1 + Math.floor((word.length - remaining - 1) / columns);
      const breaksNextRow = Math.floor((word.length - 1) / columns);
      if (breaksNextRow < breaksThisRow) {
        rows.push(row);
        row = '';
        rowLength = 0;
      }
      for (let at = 0; at < word.length;) {
        if (rowLength >= columns) {
          rows.push(row);
          row = '';
          rowLength = 0;
        }
        const taken = Math.min(columns - rowLength, word.length - at);
        row += word.slice(at, at + taken);
        rowLength += taken;
        at += taken;
        if (rowLength === columns && at < word.length) {
          rows.push(row);
          row = '';
          rowLength = 0;
        }
      }
      continue;
    }
    if (rowLength + word.length > columns && rowLength > 0 && word.length > 0) {
      rows.push(row);
      row = '';
      rowLength = 0;
    }
    row += word;
    rowLength += word.length;
  }
  rows.push(row);
  return rows;
}

/** The rows of one line (no line feed in it), or undefined to leave it to wrap-ansi. */
function wrapLine(line: string, columns: number): string[] | undefined {
  // No wider than the row: wrap-ansi leaves it as it is (a character here is at most one column).
  if (line.length <= columns && ASCII_OR_ESCAPE.test(line)) return [line];
  if (ASCII_PRINTABLE.test(line)) return wrapPlainAscii(line, columns);
  const parsedLine = words(line);
  if (!parsedLine) return undefined;
  const { words: all, ascii } = parsedLine;
  const rows: Row[] = [newRow()];
  let rowLength = 0;
  let first = true;
  for (const word of all) {
    let row = rows[rows.length - 1] as Row;
    if (first) first = false;
    else {
      if (rowLength >= columns) {
        rows.push((row = newRow()));
        rowLength = 0;
      }
      row.value += ' ';
      row.plain += ' ';
      rowLength++;
    }
    const wordWidth = ascii ? word.plain.length : width(word.plain);
    if (wordWidth > columns) {
      const remaining = columns - rowLength;
      const breaksThisRow = 1 + Math.floor((wordWidth - remaining - 1) / columns);
      const breaksNextRow = Math.floor((wordWidth - 1) / columns);
      if (breaksNextRow < breaksThisRow) {
        rows.push(newRow());
        rowLength = 0;
      }
      rowLength = wrapWord(rows, word, columns, rowLength);
      continue;
    }
    if (rowLength + wordWidth > columns && rowLength > 0 && wordWidth > 0) {
      rows.push((row = newRow()));
      rowLength = 0;
    }
    for (const part of word.parts) append(row, part);
    rowLength += wordWidth;
  }
  return restoreStyles(rows);
}

/** Closes the styles open at each row break and opens them again on the next row, as wrap-ansi does. */
function restoreStyles(rows: readonly Row[]): string[] {
  const styles: Style[] = [];
  const out: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Row;
    let value = row.value;
    // An empty row reopens nothing (and closes nothing).
    if (i > 0 && value !== '') {
      const opening = [...styles];
      for (const code of row.lead) code.resets(opening);
      value = opening.map((style) => `\x1b[${style.open}m`).join('') + value;
    }
    for (const code of row.codes) code.apply(styles);
    if (i < rows.length - 1 && row.value !== '')
      value += [...styles]
        .reverse()
        .map((style) => `\x1b[${style.close}m`)
        .join('');
    out.push(value);
  }
  return out;
}

/**
 * The rows of `text` wrapped hard at `columns`, untrimmed, exactly as
 * `wrapAnsi(text, columns, { trim: false, hard: true }).split('\n')`.
 *
 * @example
 * wrapStyledRows(`${chalk.bold('bold')} text`, 6); // ['\x1b[1mbold\x1b[22m ', 'text']
 */
export function wrapStyledRows(text: string, columns: number): string[] {
  if (!UNUSUAL.test(text)) {
    const out: string[] = [];
    for (const line of text.split('\n')) {
      const rows = wrapLine(line, columns);
      if (!rows) return wrapAnsi(text, columns, { trim: false, hard: true }).split('\n');
      for (const row of rows) out.push(row);
    }
    return out;
  }
  return wrapAnsi(text, columns, { trim: false, hard: true }).split('\n');
}
