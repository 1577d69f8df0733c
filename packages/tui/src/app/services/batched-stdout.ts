/**
 * A terminal stream whose writes made during one synchronous render are sent as one write. Ink
 * writes a frame that prints new transcript items in three parts (erase the live region, the new
 * items, the live region again); sent separately, a terminal that reads between them shows a
 * frame without its status bar. Sent together, the frame is replaced in one piece.
 */

/**
 * Wraps `stream` so that `write` calls in the same tick are joined (flushed in a microtask).
 * Everything else (size, events, TTY-ness) is the stream's own. `before` goes out with the first
 * write (what replaces a drawing made before the UI, in the same write as the first frame).
 *
 * @example
 * render(<App />, { stdout: batchedStdout(process.stdout) });
 */
export function batchedStdout(stream: NodeJS.WriteStream, before = ''): NodeJS.WriteStream {
  let pending: string[] = before === '' ? [] : [before];
  let first = before !== '';
  const flush = (): void => {
    const data = pending.join('');
    pending = [];
    if (data !== '') stream.write(data);
  };
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    pending.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
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
