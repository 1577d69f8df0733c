/**
 * Server-sent events: the encoding of one ACP message per event, and an incremental parser.
 * Runtime-neutral.
 */
import { AcpKitError } from '../jsonrpc/errors.js';

/** One event: its `id:` (absent when the server sends none) and its data (the JSON text). */
export interface SseEvent {
  id: string | undefined;
  data: string;
}

/** An event carrying one message; `data` must be a single line (see `singleLine`). */
export function encodeSseEvent(id: number | undefined, data: string): string {
  return id === undefined ? `data: ${data}\n\n` : `id: ${id}\ndata: ${data}\n\n`;
}

/** A comment line: keeps proxies from closing an idle stream, and tells the client we are alive. */
export const SSE_KEEP_ALIVE = ':\n\n';

/**
 * Turns a byte stream into events (WHATWG `text/event-stream` rules for `data`, `id` and
 * comments; `event` and `retry` are ignored). An event whose data grows past `maxEventBytes`
 * (counted in UTF-16 units, which never exceed the UTF-8 bytes) is a fatal `MESSAGE_TOO_LARGE`.
 *
 * @example
 * const parser = new SseParser((event) => deliver(event.data), { maxEventBytes: 1 << 20 });
 * parser.feed(chunk);
 */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly maxEventBytes: number;
  private buffer = '';
  private data: string[] = [];
  private dataLength = 0;
  private id: string | undefined;
  private hasData = false;
  /** The last chunk ended in CR: a LF at the start of the next one belongs to it. */
  private pendingCr = false;
  private started = false;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    options: { maxEventBytes: number },
    private readonly onComment?: () => void,
  ) {
    this.maxEventBytes = options.maxEventBytes;
  }

  /** The last `id:` seen (it persists across events, as in the spec). */
  get lastEventId(): string | undefined {
    return this.id;
  }

  /** Processes one chunk; throws `MESSAGE_TOO_LARGE` past the limit. */
  feed(chunk: Uint8Array): void {
    let text = this.decoder.decode(chunk, { stream: true });
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.pendingCr) {
      this.pendingCr = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    this.buffer += text;
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf('\n', start);
      const cr = this.buffer.indexOf('\r', start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        end = cr;
        if (cr + 1 === this.buffer.length) {
          this.pendingCr = true;
          next = cr + 1;
        } else {
          next = this.buffer.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
        }
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else {
        break;
      }
      this.line(this.buffer.slice(start, end));
      start = next;
    }
    this.buffer = start === 0 ? this.buffer : this.buffer.slice(start);
    if (this.buffer.length + this.dataLength > this.maxEventBytes)
      this.tooLarge(this.buffer.length + this.dataLength);
  }

  private line(line: string): void {
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) {
      this.onComment?.();
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.dataLength += value.length + 1;
      this.hasData = true;
      if (this.dataLength > this.maxEventBytes) this.tooLarge(this.dataLength);
    } else if (field === 'id') {
      if (value.indexOf('\0') === -1) this.id = value;
    }
  }

  private dispatch(): void {
    if (!this.hasData) return;
    const data = this.data.length === 1 ? (this.data[0] as string) : this.data.join('\n');
    this.data = [];
    this.dataLength = 0;
    this.hasData = false;
    this.onEvent({ id: this.id, data });
  }

  private tooLarge(size: number): never {
    this.buffer = '';
    this.data = [];
    throw new AcpKitError(
      'MESSAGE_TOO_LARGE',
      `inbound message exceeds the ${this.maxEventBytes}-byte limit (at least ${size} bytes)`,
      { limit: this.maxEventBytes, size },
    );
  }
}
