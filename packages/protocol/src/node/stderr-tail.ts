/**
 * A bounded tail of a process's stderr, sanitised for display in error messages.
 */

/** Default size of the kept tail: 8 KiB. */
export const DEFAULT_STDERR_TAIL_BYTES = 8 * 1024;

/**
 * Keeps the last `maxBytes` bytes written to it; memory stays under about twice that.
 *
 * @example
 * const tail = new StderrTail(8192);
 * child.stderr.on('data', (chunk) => tail.push(chunk));
 * const message = `agent failed:\n${tail.text()}`;
 */
export class StderrTail {
  private readonly maxBytes: number;
  private chunks: Uint8Array[] = [];
  private size = 0;

  constructor(maxBytes = DEFAULT_STDERR_TAIL_BYTES) {
    this.maxBytes = Math.max(0, maxBytes);
  }

  push(chunk: Uint8Array): void {
    if (this.maxBytes === 0 || chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size > this.maxBytes * 2) this.compact();
  }

  /** The kept bytes as text, without escape sequences or control characters. */
  text(): string {
    this.compact();
    const bytes = this.chunks[0];
    if (!bytes) return '';
    // The cut may have split a character: drop the replacement characters it left at the start.
    const decoded = new TextDecoder().decode(bytes).replace(/^\uFFFD+/, '');
    return sanitizeTerminalText(decoded);
  }

  private compact(): void {
    if (this.chunks.length === 0) return;
    const keep = Math.min(this.size, this.maxBytes);
    const out = new Uint8Array(keep);
    let offset = keep;
    for (let i = this.chunks.length - 1; i >= 0 && offset > 0; i--) {
      const chunk = this.chunks[i] as Uint8Array;
      const take = Math.min(chunk.length, offset);
      out.set(chunk.subarray(chunk.length - take), offset - take);
      offset -= take;
    }
    this.chunks = [out];
    this.size = keep;
  }
}

/* eslint-disable no-control-regex -- matching control characters is the point here */
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/g;
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
const STRING_SEQUENCE = /\x1b[PX^_][^\x1b]*(?:\x1b\\)?/g;
const OTHER_ESCAPE = /\x1b[ -/]*[0-~]?/g;
// C0 (but \t, \n), DEL, C1, and the bidi overrides and isolates that could reorder what is shown.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */

/**
 * Removes terminal escape sequences (colours, cursor moves, titles, hyperlinks), control
 * characters and bidi controls, keeping newlines and tabs; `\r\n` and lone `\r` become `\n`.
 * (For a stderr tail inside an error message; hosts display text with `@acp-kit/client`'s
 * `sanitizeText`, which this agrees with.)
 *
 * @example
 * sanitizeTerminalText('\x1b[31mError\x1b[0m\r\n'); // 'Error\n'
 */
export function sanitizeTerminalText(text: string): string {
  return text
    .replace(OSC, '')
    .replace(STRING_SEQUENCE, '')
    .replace(CSI, '')
    .replace(OTHER_ESCAPE, '')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL, '');
}
