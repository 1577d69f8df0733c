/**
 * Byte helpers of the framing: joining reads, and the `Content-Length` header block (LSP-style
 * framing). Runtime-neutral.
 */

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;

export function concat(parts: readonly Uint8Array[], total?: number): Uint8Array {
  const size = total ?? parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function isWhitespace(byte: number): boolean {
  return byte === 32 || byte === 10 || byte === 13 || byte === 9;
}

export function lowerAscii(byte: number): number {
  return byte >= 65 && byte <= 90 ? byte + 32 : byte;
}

/** Finds the blank line ending a header block (`\r\n\r\n` or `\n\n`), searching from `from`. */
export function findHeaderEnd(bytes: Uint8Array, from: number): { start: number; next: number } | -1 {
  let i = bytes.indexOf(NEWLINE, from);
  while (i !== -1) {
    if (bytes[i + 1] === NEWLINE) return { start: i, next: i + 2 };
    if (bytes[i + 1] === CARRIAGE_RETURN && bytes[i + 2] === NEWLINE) return { start: i, next: i + 3 };
    i = bytes.indexOf(NEWLINE, i + 1);
  }
  return -1;
}

export function latin1(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

export function parseContentLength(header: string): number | undefined {
  for (const line of header.split('\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    return /^\d{1,15}$/.test(value) ? Number(value) : undefined;
  }
  return undefined;
}
