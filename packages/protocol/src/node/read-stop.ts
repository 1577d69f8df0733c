/**
 * Pausing a Node socket's reads for real. `Readable.pause()` only stops 'data' events: a socket
 * (a pipe to a child process, a TCP connection) goes on reading, one wakeup per write of its peer,
 * until 16 KiB are buffered; read pacing would then save none of the wakeups it exists for.
 * Node's own `Socket.pause()` stops the handle only for sockets made with an `onread` buffer.
 */
import type { Readable } from 'node:stream';

/** The libuv handle of a `net.Socket`, as Node's socket code uses it. */
interface ReadHandle {
  reading?: boolean;
  readStop?: () => number;
}

/** What {@link readStopper} gives a channel: stop and start a socket's reads around pause and resume. */
export interface ReadStopper {
  /** Stops reading from the OS (after `readable.pause()`). */
  stop(): void;
  /** Reads again (before `readable.resume()`), if {@link stop} stopped anything. */
  start(): void;
}

/**
 * A stopper for `readable` when it is a socket; undefined for other streams (they read only when
 * asked). While stopped, the stream's own requests to read more (it asks until its buffer is
 * full) are held, and the last one is made on `start()`.
 */
export function readStopper(readable: Readable): ReadStopper | undefined {
  const socket = readable as Readable & { _handle?: ReadHandle | null };
  if (typeof socket._handle?.readStop !== 'function') return undefined;
  const read = socket._read.bind(socket);
  let stopped = false;
  let held: number | undefined;
  socket._read = (size: number): void => {
    if (stopped) held = size;
    else read(size);
  };
  return {
    stop() {
      const handle = socket._handle;
      stopped = true;
      if (!handle?.reading || typeof handle.readStop !== 'function') return;
      handle.reading = false;
      handle.readStop();
      // Reading starts again on start(): the stream then reads as it asked to.
      held ??= socket.readableHighWaterMark;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      const size = held;
      held = undefined;
      if (size !== undefined && !socket.destroyed) read(size);
    },
  };
}
