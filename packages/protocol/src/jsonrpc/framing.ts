/**
 * Message framing: splitting an inbound byte stream into JSON texts, and wrapping outbound JSON.
 *
 * ACP frames are newline-delimited JSON (one object per line). For interoperability with
 * LSP-style peers, the decoder can optionally detect `Content-Length:` header framing.
 * Runtime-neutral: no Node APIs.
 */
import { AcpKitError } from './errors.js';
import {
  concat,
  findHeaderEnd,
  isWhitespace,
  latin1,
  lowerAscii,
  parseContentLength,
} from './frame-bytes.js';
import { utf8ByteLength } from './frame-encoding.js';
import { PartialLine, type CompletedLine, type ParsedLine } from './partial-line.js';

export { encodeFrame, utf8ByteLength } from './frame-encoding.js';

export type { ParsedLine } from './partial-line.js';

/** Default largest inbound message: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** `ndjson`: one JSON text per line. `content-length`: LSP-style `Content-Length: N\r\n\r\n` + N bytes. */
export type FramingMode = 'ndjson' | 'content-length';

/** Receives what a {@link FrameDecoder} finds in the stream. */
export interface FrameDecoderSink {
  /**
   * One complete frame (JSON text), in stream order. With `parseLongLines: 'text'`, a long line
   * may come already parsed (`parsed.value`); `text` is then the line as a concatenation of the
   * pieces it was read in (reading its characters makes V8 join them: only for what is rare).
   */
  frame(text: string, parsed?: { value: unknown }): void;
  /**
   * With `parseLongLines: 'value'`: a long line parsed as it arrived, in stream order with the
   * frames, without its text (its pieces were let go as they were parsed).
   */
  parsedLine?(line: ParsedLine): void;
  /** A fatal framing error (today only `MESSAGE_TOO_LARGE`); the decoder ignores input afterwards. */
  fatal(error: AcpKitError): void;
}

export interface FrameDecoderOptions {
  /** Largest accepted frame in bytes (default {@link DEFAULT_MAX_MESSAGE_BYTES}). */
  maxMessageBytes?: number;
  /** Switch to `Content-Length` framing when the stream starts with that header (default false). */
  detectContentLength?: boolean;
  /**
   * Decodes a complete UTF-8 byte range (runs of whole lines, Content-Length bodies); defaults to a
   * `TextDecoder` (invalid bytes become U+FFFD). A line that spans reads is always decoded piece
   * by piece with a streaming `TextDecoder`, whatever this is.
   */
  decodeUtf8?: (bytes: Uint8Array) => string;
  /**
   * Parse a line of at least 1 MiB that spans reads as it arrives (long-line.ts: its pieces are
   * never joined, its long string values never copied out of a joined line); default off.
   * `'text'` (or true): the value goes to `sink.frame` with the line's text, which holds every
   * piece until the frame is handled. `'value'`: to `sink.parsedLine` without it, each piece let
   * go once parsed (only the decoded values stay). A line this path cannot parse goes to
   * `sink.frame` as text either way (with `'value'`, its long values as the parser decoded them,
   * spelt again: the same JSON).
   */
  parseLongLines?: boolean | 'text' | 'value';
}

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const BOM = [0xef, 0xbb, 0xbf] as const;
const CONTENT_LENGTH_PREFIX = 'content-length:';
/** Header blocks are a few dozen bytes; anything this large is not a header. */
const MAX_HEADER_BYTES = 8 * 1024;

const enum Stage {
  Bom,
  Detect,
  Running,
  Failed,
}

/**
 * Incremental decoder: feed it chunks as they arrive, it calls `sink.frame` for each complete frame.
 *
 * Lines are found with `Uint8Array#indexOf` and each chunk's run of complete lines is decoded with
 * ONE `TextDecoder` call, then split as a string: much faster than decoding line by line, and safe
 * because byte 0x0A never occurs inside a multi-byte UTF-8 sequence. A line that spans reads is
 * decoded read by read (a streaming `TextDecoder`) and its pieces of text joined once at its end:
 * cost stays linear in message size, and a long line is held as text only, never also as the
 * bytes it came in and a joined copy of them (three copies of a 60 MiB message).
 *
 * @example
 * const decoder = new FrameDecoder({ frame: (text) => handle(JSON.parse(text)), fatal: (err) => fail(err) });
 * decoder.feed(new TextEncoder().encode('{"jsonrpc":"2.0","method":"x"}\n'));
 */
export class FrameDecoder {
  private readonly sink: FrameDecoderSink;
  private readonly maxBytes: number;
  private readonly detect: boolean;
  private readonly decode: (bytes: Uint8Array) => string;
  private readonly parseLong: 'text' | 'value' | undefined;
  private stage = Stage.Bom;
  private currentMode: FramingMode | undefined;
  /** Bytes held back while the BOM / framing detection is undecided (a few bytes at most). */
  private head: Uint8Array | undefined;
  /** Pieces of the current header/body (Content-Length). */
  private parts: Uint8Array[] = [];
  /** Bytes of the current header/body (Content-Length). */
  private partBytes = 0;
  /** NDJSON: the current incomplete line. */
  private readonly line: PartialLine;
  /** Content-Length mode: body length being collected, or -1 while reading headers. */
  private bodyLength = -1;

  constructor(sink: FrameDecoderSink, options: FrameDecoderOptions = {}) {
    this.sink = sink;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.detect = options.detectContentLength ?? false;
    const long = options.parseLongLines;
    this.parseLong = long === true ? 'text' : long === false ? undefined : long;
    if (this.parseLong === 'value' && !sink.parsedLine)
      throw new TypeError("parseLongLines: 'value' needs a sink with parsedLine");
    this.line = new PartialLine(this.parseLong !== undefined, this.parseLong !== 'value');
    if (options.decodeUtf8) {
      this.decode = options.decodeUtf8;
    } else {
      // ignoreBOM keeps decoding a pure function of the bytes; the stream-start BOM is handled here.
      const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
      this.decode = (bytes) => decoder.decode(bytes);
    }
  }

  /** The framing in use, or `undefined` while detection has not seen enough bytes. */
  get mode(): FramingMode | undefined {
    return this.currentMode;
  }

  /** True after a fatal error: further input is ignored. */
  get failed(): boolean {
    return this.stage === Stage.Failed;
  }

  /** Processes one chunk of the stream (any size, including empty). */
  feed(chunk: Uint8Array): void {
    if (this.stage !== Stage.Running) {
      if (this.stage === Stage.Failed) return;
      const rest = this.consumeHead(chunk);
      if (rest === undefined || rest.length === 0) return;
      chunk = rest;
    }
    if (this.currentMode === 'content-length') this.feedContentLength(chunk);
    else this.feedLines(chunk);
  }

  /** Marks the end of the stream: a last line without a trailing newline is still delivered. */
  end(): void {
    if (this.stage === Stage.Failed) return;
    if (this.stage !== Stage.Running) {
      const held = this.head;
      this.head = undefined;
      this.stage = Stage.Running;
      this.currentMode = 'ndjson';
      if (held) this.feedLines(held);
    }
    if (this.currentMode === 'ndjson' && this.line.bytes > 0 && this.stage === Stage.Running) {
      this.emitCompleted(this.line.take(new Uint8Array(0)));
    }
    this.parts = [];
    this.line.clear();
    this.partBytes = 0;
  }

  /** Handles the stream-start BOM and framing detection; returns the bytes left to frame. */
  private consumeHead(chunk: Uint8Array): Uint8Array | undefined {
    let bytes = chunk;
    if (this.head) {
      bytes = concat([this.head, chunk], this.head.length + chunk.length);
      this.head = undefined;
    }
    if (this.stage === Stage.Bom) {
      const n = Math.min(3, bytes.length);
      let matched = 0;
      while (matched < n && bytes[matched] === BOM[matched]) matched++;
      if (matched === n && n < 3) {
        this.head = bytes;
        return undefined;
      }
      if (matched === 3) bytes = bytes.subarray(3);
      this.stage = Stage.Detect;
    }
    if (!this.detect) {
      this.stage = Stage.Running;
      this.currentMode = 'ndjson';
      return bytes;
    }
    // Leading whitespace produces no frame in either mode, so it can be dropped while undecided.
    let start = 0;
    while (start < bytes.length && isWhitespace(bytes[start] as number)) start++;
    bytes = bytes.subarray(start);
    const n = Math.min(CONTENT_LENGTH_PREFIX.length, bytes.length);
    for (let i = 0; i < n; i++) {
      if (lowerAscii(bytes[i] as number) !== CONTENT_LENGTH_PREFIX.charCodeAt(i)) {
        this.stage = Stage.Running;
        this.currentMode = 'ndjson';
        return bytes;
      }
    }
    if (n < CONTENT_LENGTH_PREFIX.length) {
      if (n > 0) this.head = bytes;
      return undefined;
    }
    this.stage = Stage.Running;
    this.currentMode = 'content-length';
    return bytes;
  }

  private feedLines(chunk: Uint8Array): void {
    const length = chunk.length;
    if (this.line.bytes === 0 && length > 0 && chunk[length - 1] === NEWLINE) {
      // The usual read: whole lines. One decode of the chunk, then the lines are found in the
      // string; no byte search, no subarray.
      this.emitRun(this.decode(chunk), length - 1 > this.maxBytes);
      return;
    }
    const first = chunk.indexOf(NEWLINE);
    if (first === -1) {
      this.pushLinePart(chunk);
      return;
    }
    let start = 0;
    if (this.line.bytes > 0) {
      // Finish the line that began in earlier chunks.
      const total = this.line.bytes + first;
      const lastByte = first > 0 ? (chunk[first - 1] as number) : this.line.lastByte;
      // The size of a line leaves out its line ending, CR included.
      const size = lastByte === CARRIAGE_RETURN ? total - 1 : total;
      if (size > this.maxBytes) return this.fail(size);
      this.emitCompleted(this.line.take(chunk.subarray(0, first)));
      if (this.stage === Stage.Failed) return;
      start = first + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    // One decode for every complete line in this chunk, then split the string.
    if (last > start && !this.emitRun(this.decode(chunk.subarray(start, last)), last - start > this.maxBytes))
      return;
    if (last + 1 < chunk.length) this.pushLinePart(chunk.subarray(last + 1));
  }

  /**
   * Emits every line of `text` (complete lines; a last one without its newline counts), checking
   * their sizes when `checkSize` (the run is longer than the limit). False after a fatal error.
   */
  private emitRun(text: string, checkSize: boolean): boolean {
    let from = 0;
    let newline: number;
    while ((newline = text.indexOf('\n', from)) !== -1) {
      if (!this.emitChecked(text, from, newline, checkSize)) return false;
      from = newline + 1;
    }
    return this.emitChecked(text, from, text.length, checkSize);
  }

  /** Emits `text[from, to)`, first checking its byte size when the run could hold an oversized line. */
  private emitChecked(text: string, from: number, to: number, checkSize: boolean): boolean {
    if (from === to) return true;
    const line = text.slice(from, to);
    if (checkSize) {
      // The line ending (a CR before the LF) is not part of the size. UTF-16 units never outnumber
      // UTF-8 bytes, and one unit is at most 3 bytes.
      const ending = line.charCodeAt(line.length - 1) === CARRIAGE_RETURN ? 1 : 0;
      const units = line.length - ending;
      if (units > this.maxBytes) {
        this.fail(units);
        return false;
      }
      if (units * 3 > this.maxBytes) {
        const bytes = utf8ByteLength(line) - ending;
        if (bytes > this.maxBytes) {
          this.fail(bytes);
          return false;
        }
      }
    }
    this.emitLine(line);
    return this.stage !== Stage.Failed;
  }

  private emitLine(line: string): void {
    let end = line.length;
    if (end > 0 && line.charCodeAt(end - 1) === CARRIAGE_RETURN) end--;
    if (end === 0) return;
    const text = end === line.length ? line : line.slice(0, end);
    // Whitespace-only lines are blank lines too; only look when the line starts with whitespace.
    if (text.charCodeAt(0) <= 32 && text.trim() === '') return;
    this.sink.frame(text);
  }

  private feedContentLength(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length && this.stage !== Stage.Failed) {
      if (this.bodyLength < 0) {
        offset = this.readHeader(chunk, offset);
      } else {
        const need = this.bodyLength - this.partBytes;
        const take = Math.min(need, chunk.length - offset);
        this.parts.push(chunk.subarray(offset, offset + take));
        this.partBytes += take;
        offset += take;
        if (this.partBytes === this.bodyLength) {
          const text = this.decode(this.takeParts());
          this.bodyLength = -1;
          this.sink.frame(text);
        }
      }
    }
  }

  /** Accumulates header bytes from `offset`; returns the offset after what it consumed. */
  private readHeader(chunk: Uint8Array, offset: number): number {
    if (this.partBytes === 0) {
      // Tolerate newlines between messages.
      while (offset < chunk.length && isWhitespace(chunk[offset] as number)) offset++;
      if (offset === chunk.length) return offset;
    }
    const previous = this.partBytes;
    const bytes = previous > 0 ? concat([...this.parts, chunk.subarray(offset)]) : chunk.subarray(offset);
    const end = findHeaderEnd(bytes, Math.max(0, previous - 3));
    if (end === -1) {
      if (bytes.length > MAX_HEADER_BYTES) {
        this.fail(bytes.length);
        return chunk.length;
      }
      this.parts = [bytes.slice()];
      this.partBytes = bytes.length;
      return chunk.length;
    }
    this.parts = [];
    this.partBytes = 0;
    const header = latin1(bytes.subarray(0, end.start)).trimEnd();
    const length = parseContentLength(header);
    if (length === undefined) {
      // Not a usable header: hand it on as a frame so the engine reports a parse error.
      this.sink.frame(header);
    } else if (length > this.maxBytes) {
      this.fail(length);
    } else if (length === 0) {
      this.sink.frame('');
    } else {
      this.bodyLength = length;
    }
    return offset + end.next - previous;
  }

  /** Adds a read to the incomplete line. */
  private pushLinePart(piece: Uint8Array): void {
    if (piece.length === 0) return;
    const bytes = this.line.bytes + piece.length;
    // Fail as soon as the partial line is too big, instead of buffering it whole first; one byte
    // over the limit may still be the CR of a CRLF ending.
    if (
      bytes > this.maxBytes + 1 ||
      (bytes === this.maxBytes + 1 && piece[piece.length - 1] !== CARRIAGE_RETURN)
    )
      return this.fail(bytes);
    this.line.push(piece);
  }

  private emitCompleted(line: CompletedLine): void {
    if (line.kind === 'text') this.emitLine(line.text);
    else if (line.kind === 'parsed') {
      if (line.text !== undefined) this.sink.frame(line.text, { value: line.line.value });
      else this.sink.parsedLine?.(line.line);
    }
  }

  private takeParts(total = this.partBytes): Uint8Array {
    const parts = this.parts;
    this.parts = [];
    this.partBytes = 0;
    return parts.length === 1 ? (parts[0] as Uint8Array) : concat(parts, total);
  }

  private fail(size: number): void {
    this.stage = Stage.Failed;
    this.parts = [];
    this.line.clear();
    this.partBytes = 0;
    this.head = undefined;
    this.sink.fatal(
      new AcpKitError(
        'MESSAGE_TOO_LARGE',
        `inbound message exceeds the ${this.maxBytes}-byte limit (at least ${size} bytes)`,
        { limit: this.maxBytes, size },
      ),
    );
  }
}
