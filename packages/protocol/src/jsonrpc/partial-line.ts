/**
 * The NDJSON line that spans reads, as the framing collects it: each read decoded at once (its
 * bytes can go), and a long line parsed as it arrives (long-line.ts). Runtime-neutral.
 */
import { LONG_LINE_CHARS, LongLineParser } from './long-line.js';

/** A long line parsed as it arrived, handed on without its text. */
export interface ParsedLine {
  readonly value: unknown;
  /** The line's length in UTF-16 code units. */
  readonly length: number;
  /**
   * The line with each long string value replaced by a short marker: its other members exactly
   * as they were written (e.g. the digits of an id too large for a number).
   */
  readonly outline: string;
}

/** A line the framing completed: to parse as usual, nothing (blank), or parsed already. */
export type CompletedLine =
  | { kind: 'text'; text: string }
  | { kind: 'blank' }
  /** `text`: the exact line, when it was kept (a concatenation of its pieces). */
  | { kind: 'parsed'; line: ParsedLine; text?: string };

const CARRIAGE_RETURN = 13;

/**
 * One incomplete line. A line shorter than {@link LONG_LINE_CHARS} bytes is kept as its pieces
 * of text and joined once at its end. From that size on (with `parse`), the pieces go to a
 * {@link LongLineParser} as they arrive and, unless `keepText`, are not kept: nothing but the
 * parser refers to them, which keeps only what it decoded.
 */
export class PartialLine {
  /** Bytes of the line so far. */
  bytes = 0;
  /** The line's last byte so far (a CR may end it). */
  lastByte = -1;
  private pieces: string[] = [];
  private length = 0;
  private parser: LongLineParser | undefined;
  /** Decodes the line piece by piece (a character may straddle two reads). */
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  constructor(
    private readonly parse: boolean,
    private readonly keepText: boolean,
  ) {}

  /**
   * Characters of the line this holds as they were read (its pieces, and what the parser keeps of
   * them), not counting what the parser decoded: with `keepText` off, it stays near the line's
   * short rest once the parser has started.
   */
  get keptChars(): number {
    let chars = this.parser?.keptChars ?? 0;
    for (const piece of this.pieces) chars += piece.length;
    return chars;
  }

  /** Adds a read to the line: decoded at once, so that its bytes can go. */
  push(piece: Uint8Array): void {
    if (piece.length === 0) return;
    this.bytes += piece.length;
    this.lastByte = piece[piece.length - 1] as number;
    this.add(this.decoder.decode(piece, { stream: true }));
    if (this.parse && !this.parser && this.bytes >= LONG_LINE_CHARS) {
      const parser = new LongLineParser();
      for (const text of this.pieces) parser.push(text);
      this.parser = parser;
      if (!this.keepText) this.pieces = [];
    }
  }

  /**
   * The line ended by `rest` (its last bytes, possibly none); the next line starts empty. A line
   * handed on as text keeps its CR (the framing drops it as for any line).
   */
  take(rest: Uint8Array): CompletedLine {
    const last = this.decoder.decode(rest);
    const crAtEnd =
      last.length > 0
        ? last.charCodeAt(last.length - 1) === CARRIAGE_RETURN
        : this.lastByte === CARRIAGE_RETURN;
    this.add(last);
    const { parser, pieces, keepText } = this;
    const length = this.length - (crAtEnd ? 1 : 0);
    this.clear();
    if (!parser) return { kind: 'text', text: pieces.length === 1 ? (pieces[0] as string) : pieces.join('') };
    // The parser took the CR as JSON whitespace (or inside what is broken anyway).
    const result = parser.end();
    if (result.kind === 'blank') return result;
    if (result.kind === 'declined') return { kind: 'text', text: keepText ? pieces.join('') : parser.text() };
    const line: ParsedLine = { value: result.value, length, outline: result.outline };
    if (!keepText) return { kind: 'parsed', line };
    if (crAtEnd) {
      // The CR is the last piece's last character (pieces are never empty).
      const end = pieces[pieces.length - 1] as string;
      if (end.length > 1) pieces[pieces.length - 1] = end.slice(0, -1);
      else pieces.pop();
    }
    // A concatenation refers to the pieces: no copy unless its characters are read.
    let text = '';
    for (const piece of pieces) text += piece;
    return { kind: 'parsed', line, text };
  }

  /** Forgets the line (the stream failed or ended). */
  clear(): void {
    this.pieces = [];
    this.parser = undefined;
    this.length = 0;
    this.bytes = 0;
    this.lastByte = -1;
  }

  private add(text: string): void {
    if (text.length === 0) return;
    this.length += text.length;
    this.parser?.push(text);
    if (!this.parser || this.keepText) this.pieces.push(text);
  }
}
