/**
 * What the framing writes (a JSON text in its framing) and how it counts bytes. Runtime-neutral.
 */
import type { FramingMode } from './framing.js';

/**
 * Wraps one JSON text for the wire in the given framing.
 *
 * @example
 * channel.write(encodeFrame(JSON.stringify(message), 'ndjson'));
 */
export function encodeFrame(json: string, mode: FramingMode = 'ndjson'): string {
  if (mode === 'ndjson') return json + '\n';
  return `Content-Length: ${utf8ByteLength(json)}\r\n\r\n${json}`;
}

/**
 * Number of bytes `text` takes in UTF-8 (lone surrogates count as U+FFFD, 3 bytes).
 *
 * @example
 * utf8ByteLength('é€😀'); // 9
 */
export function utf8ByteLength(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) {
      bytes += 1;
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // A pair: 2 units, 4 bytes.
        bytes += 2;
        i++;
      } else {
        bytes += 2;
      }
    } else {
      bytes += 2;
    }
  }
  return bytes;
}
