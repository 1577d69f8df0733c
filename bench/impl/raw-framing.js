/**
 * The raw baseline's framing: bare JSON.stringify / JSON.parse, lines split by hand, no validation.
 */

/** Calls `onMessage` with every JSON value read from `stream`, one per line. */
export function readLines(stream, onMessage) {
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    buf += chunk;
    let start = 0;
    let nl;
    while ((nl = buf.indexOf('\n', start)) !== -1) {
      const line = buf.slice(start, nl);
      start = nl + 1;
      if (line.length > 0) onMessage(JSON.parse(line));
    }
    buf = start === buf.length ? '' : buf.slice(start);
  });
}

/** Writes one frame; returns false when the caller should wait for 'drain'. */
export function writeFrame(stream, message) {
  return stream.write(JSON.stringify(message) + '\n');
}

/** Writes this many characters at a time: the batch size of the acp-kit Node channel. */
const BATCH_CHARS = 64 * 1024;

/** Frames gathered into one write of {@link BATCH_CHARS}: the least a sender can pay per frame. */
export class FrameBatch {
  constructor(stream) {
    this.stream = stream;
    this.text = '';
  }

  /** Adds a frame; returns false when the caller should wait for 'drain'. */
  add(message) {
    this.text += JSON.stringify(message) + '\n';
    return this.text.length >= BATCH_CHARS ? this.flush() : true;
  }

  /** Writes what was gathered; returns false when the caller should wait for 'drain'. */
  flush() {
    const text = this.text;
    this.text = '';
    return text.length === 0 || this.stream.write(text);
  }
}
