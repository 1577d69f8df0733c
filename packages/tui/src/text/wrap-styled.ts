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
 *
 * Most lines printed are printable ASCII, and their rows are made with less: a line no longer
 * than the row as it is, a line without sequences on strings alone, and a styled line whose words
 * all fit a row cut from it at spaces (printing a long session's history wraps thousands of them).
 */
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import { graphemes } from './graphemes.js';
import { parsedSgr, restoreStyles, SGR, SGR_PATTERN, type Sgr, type StyledRow } from './sgr-styles.js';

/** What sends a text to wrap-ansi: tabs and CRs (expanded/removed there), BEL, 8-bit CSI. */
// eslint-disable-next-line no-control-regex
const UNUSUAL = /[\t\r\x07\x9b]/;
const ASCII_PRINTABLE = /^[ -~]*$/;
/** Every sequence of the forms handled here. */
const SGR_ALL = new RegExp(SGR_PATTERN, 'g');
/** Printable ASCII and escapes: never more columns than characters (an escape takes none). */
// eslint-disable-next-line no-control-regex
const ASCII_OR_ESCAPE = /^[\x1b -~]*$/;

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

function newRow(): Row {
  return { value: '', plain: '', codes: [], lead: [] };
}

function width(plain: string): number {
  return ASCII_PRINTABLE.test(plain) ? plain.length : stringWidth(plain, { countAnsiEscapeCodes: true });
}

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
    (all[all.length - 1] as Word).parts.push(parsedSgr(match));
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
    const clusters = [...graphemes(part)];
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
 * Whether a word wider than the row starts on the next row rather than after what the row holds
 * (`rowLength` columns): wrap-ansi's rule, when that breaks it fewer times.
 */
function longWordOnNextRow(wordWidth: number, rowLength: number, columns: number): boolean {
  const breaksThisRow = 1 + Math.floor((wordWidth - (columns - rowLength) - 1) / columns);
  const breaksNextRow = Math.floor((wordWidth - 1) / columns);
  return breaksNextRow < breaksThisRow;
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
      if (longWordOnNextRow(word.length, rowLength, columns)) {
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

/**
 * The text of a line of printable ASCII and sequences of the forms handled here (without them),
 * or undefined for any other line: two plain scans, where one pattern for the whole line would
 * step (and keep a backtracking entry) per character.
 */
function asciiText(line: string): string | undefined {
  const text = line.replace(SGR_ALL, '');
  // An escape left is one that starts no such sequence.
  return ASCII_PRINTABLE.test(text) ? text : undefined;
}

/**
 * Whether a line whose text (its sequences taken out) is `text` comes out of wrap-ansi as it
 * is: its text normalized already (wrap-ansi normalizes each run between sequences, and a run
 * that normalization changes changes the whole), and its words and the spaces between them no
 * wider than the row, measured as wrap-ansi measures them (so no row is broken).
 */
function fitsUnchanged(text: string, columns: number): boolean {
  if (text.normalize() !== text) return false;
  let total = -1;
  for (const word of text.split(' ')) {
    total += width(word) + 1;
    if (total > columns) return false;
  }
  return true;
}

/** A row cut out of a line, with the sequences in it. */
function slicedRow(value: string): StyledRow {
  const codes: Sgr[] = [];
  const lead: Sgr[] = [];
  /** Where the sequences at the start of the row end. */
  let leadEnd = 0;
  for (let at = value.indexOf('\x1b'); at !== -1; at = value.indexOf('\x1b', at)) {
    SGR.lastIndex = at;
    const match = SGR.exec(value) as RegExpExecArray;
    const code = parsedSgr(match);
    codes.push(code);
    at += match[0].length;
    if (at - match[0].length === leadEnd) {
      lead.push(code);
      leadEnd = at;
    }
  }
  return { value, codes, lead };
}

/**
 * The rows of a line of printable ASCII and handled sequences when no word of it is wider than a
 * row (a styled paragraph), or undefined. A sequence holds no space and stays with the word it is
 * in, so such rows are the line cut at spaces: they are cut from it, no word is taken apart.
 */
function wrapStyledAscii(line: string, columns: number): string[] | undefined {
  const pieces = line.split(' ');
  const rows: StyledRow[] = [];
  let rowStart = 0;
  /** Index in the line of the word, then of the space after it. */
  let at = 0;
  let rowLength = 0;
  for (let w = 0; w < pieces.length; w++) {
    const word = pieces[w] as string;
    const wordWidth = word.includes('\x1b') ? word.replace(SGR_ALL, '').length : word.length;
    if (wordWidth > columns) return undefined;
    if (w > 0) {
      if (rowLength >= columns) {
        rows.push(slicedRow(line.slice(rowStart, at)));
        rowStart = at;
        rowLength = 0;
      }
      rowLength++;
      at++;
      if (rowLength + wordWidth > columns && wordWidth > 0) {
        rows.push(slicedRow(line.slice(rowStart, at)));
        rowStart = at;
        rowLength = 0;
      }
    }
    rowLength += wordWidth;
    at += word.length;
  }
  rows.push(slicedRow(line.slice(rowStart)));
  return restoreStyles(rows);
}

/** The rows of one line (no line feed in it), or undefined to leave it to wrap-ansi. */
function wrapLine(line: string, columns: number): string[] | undefined {
  // No wider than the row: wrap-ansi leaves it as it is (a character here is at most one column).
  if (line.length <= columns && ASCII_OR_ESCAPE.test(line)) return [line];
  if (ASCII_PRINTABLE.test(line)) return wrapPlainAscii(line, columns);
  const text = line.replace(SGR_ALL, '');
  // An escape left is one that starts no sequence handled here (wrap-ansi's, below).
  if (!text.includes('\x1b')) {
    if (ASCII_PRINTABLE.test(text)) {
      const sliced = wrapStyledAscii(line, columns);
      if (sliced) return sliced;
    } else if (fitsUnchanged(text, columns)) return [line];
  }
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
      if (longWordOnNextRow(wordWidth, rowLength, columns)) {
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

/**
 * Whether `line` (one line) takes more than `columns` columns: `stringWidth(line) > columns`,
 * without measuring character by character a line of printable ASCII and SGR sequences (the
 * bundle's string-width does, and the lines of a printed answer are mostly such).
 *
 * @example
 * if (lines.some((line) => widerThan(line, width))) rows = wrapStyledRows(text, width);
 */
export function widerThan(line: string, columns: number): boolean {
  if (line.length <= columns && ASCII_OR_ESCAPE.test(line)) return false;
  const text = asciiText(line);
  return text !== undefined ? text.length > columns : stringWidth(line) > columns;
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
