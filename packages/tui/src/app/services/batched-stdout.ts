/**
 * A terminal stream whose writes made during one synchronous render are sent as one write. Ink
 * writes a frame that prints new transcript items in three parts (erase the live region, the new
 * items, the live region again); sent separately, a terminal that reads between them shows a
 * frame without its status bar. Sent together, the frame is replaced in one piece.
 *
 * It also keeps Ink from erasing the scrollback. When a frame is as tall as the screen (a
 * permission question about a very long command, which is always shown in full), Ink clears the
 * terminal with `CSI 2 J CSI 3 J` before every frame until it is shorter again; `CSI 3 J` erases the
 * scrollback, that is the whole session printed so far. Only the visible screen is cleared here
 * (terminals such as tmux and VTE scroll it into the history first). The UI's own clears (a reprint
 * of the history, written alone) go out unchanged.
 */

/** What Ink writes before a frame as tall as the screen. */
const INK_CLEAR_TERMINAL = '\x1b[2J\x1b[3J\x1b[H';
/** The same without erasing the scrollback. */
const CLEAR_VISIBLE = '\x1b[2J\x1b[H';

/**
 * A write to the terminal with Ink's full clear made to keep the scrollback, unless the write is
 * exactly `ownClear` (the UI clearing deliberately before it prints the history again).
 *
 * @example
 * keepScrollback(`\x1b[2J\x1b[3J\x1b[H${frame}`, CLEAR_SCREEN); // '\x1b[2J\x1b[H' + frame
 */
export function keepScrollback(chunk: string, ownClear: string): string {
  if (chunk === ownClear || !chunk.includes(INK_CLEAR_TERMINAL)) return chunk;
  return chunk.replaceAll(INK_CLEAR_TERMINAL, CLEAR_VISIBLE);
}

/**
 * Wraps `stream` so that `write` calls in the same tick are joined (flushed in a microtask).
 * Everything else (size, events, TTY-ness) is the stream's own. `before` goes out with the first
 * write (what replaces a drawing made before the UI, in the same write as the first frame).
 * `ownClear` is the UI's own clear, written alone when it means to erase the scrollback.
 *
 * @example
 * render(<App />, { stdout: batchedStdout(process.stdout) });
 */
export function batchedStdout(
  stream: NodeJS.WriteStream,
  before = '',
  ownClear = INK_CLEAR_TERMINAL,
): NodeJS.WriteStream {
  let pending: string[] = before === '' ? [] : [before];
  let first = before !== '';
  const flush = (): void => {
    const data = pending.join('');
    pending = [];
    if (data !== '') stream.write(data);
  };
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    pending.push(keepScrollback(text, ownClear));
    if (pending.length === 1 || first) queueMicrotask(flush);
    first = false;
    const callback = rest.find((arg): arg is () => void => typeof arg === 'function');
    if (callback) queueMicrotask(callback);
    return true;
  };
  return new Proxy(stream, {
    get(target, property, receiver) {
      if (property === 'write') return write;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
