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
