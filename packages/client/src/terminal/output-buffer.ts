/**
 * A terminal's captured output: bounded in bytes, truncated from the start at a UTF-8 character
 * boundary (what is kept is always valid text, the newest output wins).
 */

/**
 * Number of bytes to skip at the start of `bytes` so that it begins on a character boundary
 * (UTF-8 continuation bytes are `10xxxxxx`).
 */
export function utf8StartBoundary(bytes: Uint8Array): number {
  let skip = 0;
  while (skip < bytes.length && skip < 4 && ((bytes[skip] as number) & 0xc0) === 0x80) skip++;
  return skip;
}

/** Length of `bytes` without an incomplete character at the end (a chunk may end mid-character). */
export function utf8CompleteLength(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(4, n); back++) {
    const byte = bytes[n - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

/**
 * Output kept up to `limit` bytes.
 *
 * @example
 * const out = new OutputBuffer(5);
 * out.push(Buffer.from('héllo!')); // 7 bytes
 * out.text(); // 'llo!' (the cut fell inside 'é', so its second byte went too)
 * out.truncated; // true
 */
export class OutputBuffer {
  private chunks: Uint8Array[] = [];
  private size = 0;
  private cut = false;

  constructor(readonly limit: number) {}

  /** Whether output was dropped from the start. */
  get truncated(): boolean {
    return this.cut || this.size > this.limit;
  }

  /** Bytes currently held (at most about twice the limit). */
  get byteLength(): number {
    return this.size;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size > this.limit * 2 + 65536) this.compact();
  }

  /**
   * The kept output as text. While the process runs (`final` false) an incomplete character at the
   * end is left out until its remaining bytes arrive.
   */
  text(final = true): string {
    this.compact();
    const bytes = this.chunks[0];
    if (!bytes) return '';
    const end = final ? bytes.length : utf8CompleteLength(bytes);
    return new TextDecoder('utf-8').decode(bytes.subarray(0, end));
  }

  private compact(): void {
    if (this.chunks.length === 1 && this.size <= this.limit) return;
    if (this.chunks.length === 0) return;
    const keep = Math.min(this.size, this.limit);
    const joined = new Uint8Array(keep);
    let offset = keep;
    for (let i = this.chunks.length - 1; i >= 0 && offset > 0; i--) {
      const chunk = this.chunks[i] as Uint8Array;
      const take = Math.min(chunk.length, offset);
      joined.set(chunk.subarray(chunk.length - take), offset - take);
      offset -= take;
    }
    if (keep < this.size) {
      this.cut = true;
      const skip = utf8StartBoundary(joined);
      this.chunks = [joined.subarray(skip)];
      this.size = keep - skip;
    } else {
      this.chunks = [joined];
      this.size = keep;
    }
  }
}
