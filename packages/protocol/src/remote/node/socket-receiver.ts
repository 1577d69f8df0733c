/** A WebSocket (from `ws`) as the receiver of a remote connection's stream, and the source of its client messages. */
import type { WebSocket } from 'ws';
import type { StreamReceiver } from '../out-stream.js';
import type { Admission } from '../server.js';
import { isRefusal } from '../server.js';
import type { RemoteConnection } from '../server-connection.js';
import { isRequest, parseMessage } from '../wire.js';

/** Unsent bytes past which the socket counts as backed up; it is drained again at half. */
const SOCKET_HIGH_WATER = 256 * 1024;
/** Close code when the events a resuming client needs are no longer kept (ours, 4000–4999 range). */
export const CLOSE_EVENTS_LOST = 4410;
/** Close code for a socket that did not send `initialize` within the handshake timeout (ours). */
export const CLOSE_NO_INITIALIZE = 4408;
/** "Try Again Later" (RFC 6455 registry): no agent place was free when `initialize` arrived. */
export const CLOSE_TRY_AGAIN_LATER = 1013;

/** How a socket starts: a new client (its agent starts at `initialize`), or one resuming a connection. */
export type SocketStart =
  | { admission: Admission; handshakeTimeoutMs: number }
  | { connection: RemoteConnection; lastEventId: number };

/**
 * Runs a connection over an upgraded socket: its frames go to the agent in order (the socket is
 * paused while the agent does not read), the stream's events go out as text frames, pings detect a
 * vanished client. A new socket has no connection until its first frame, an `initialize`, arrives
 * within the handshake timeout; a resuming one gets the events after `lastEventId` first.
 */
export function serveSocket(ws: WebSocket, start: SocketStart, heartbeatMs: number): void {
  let connection = 'connection' in start ? start.connection : undefined;
  let unsent = 0;
  let backedUp = false;
  let closed = false;
  /** Text frames received before the connection existed (counted into its `clientSeq`). */
  let early = 0;
  const receiver: StreamReceiver = {
    send: (_id, data) => {
      if (closed) return true;
      unsent += data.length;
      ws.send(data, () => {
        unsent -= data.length;
        if (backedUp && unsent <= SOCKET_HIGH_WATER / 2) {
          backedUp = false;
          connection?.drained(receiver, undefined);
        }
      });
      if (unsent > SOCKET_HIGH_WATER) backedUp = true;
      return !backedUp;
    },
    detach: (reason) => {
      if (closed) return;
      closed = true;
      if (reason === 'replaced') ws.terminate();
      else ws.close(1000, reason === 'finished' ? 'agent exited' : 'connection closed');
    },
  };
  const attach = (target: RemoteConnection, lastEventId: number | undefined): boolean => {
    const result = target.attach(receiver, undefined, lastEventId);
    if ('status' in result || !result.ok) {
      closed = true;
      const gap = !('status' in result) && result.reason === 'gap';
      ws.close(gap ? CLOSE_EVENTS_LOST : 1008, gap ? 'events lost' : 'cannot resume');
      return false;
    }
    return true;
  };
  if ('connection' in start && !attach(start.connection, start.lastEventId)) return;

  const admission = 'admission' in start ? start.admission : undefined;
  const handshake =
    admission &&
    setTimeout(
      () => {
        if (connection || closed) return;
        closed = true;
        admission.release();
        ws.close(CLOSE_NO_INITIALIZE, 'initialize not sent in time');
      },
      (start as { handshakeTimeoutMs: number }).handshakeTimeoutMs,
    );

  /** The first frame of a new socket: the connection and its agent start if it is `initialize`. */
  const open = async (first: string): Promise<RemoteConnection | undefined> => {
    if (!admission) return undefined;
    clearTimeout(handshake);
    const message = parseMessage(first);
    if (message?.method !== 'initialize' || !isRequest(message)) {
      // RFD: the first message is `initialize`; no agent is started for anything else.
      admission.release();
      closed = true;
      ws.close(1002, 'first message must be initialize');
      return undefined;
    }
    const opened = await admission.open();
    if (isRefusal(opened)) {
      closed = true;
      ws.close(CLOSE_TRY_AGAIN_LATER, opened.message.slice(0, 120));
      return undefined;
    }
    if (closed) {
      opened.close('the client went away during initialize');
      return undefined;
    }
    opened.clientSeq += early;
    connection = opened;
    return attach(opened, undefined) ? opened : undefined;
  };

  // Client frames, one at a time and in order; the socket is paused while one waits for the agent.
  // Frames that arrived before the socket closed still go to the connection: it may be resumed.
  const queue: string[] = [];
  let busy = false;
  const pump = async (): Promise<void> => {
    busy = true;
    while (queue.length > 0) {
      const text = queue.shift() as string;
      const target = connection ?? (closed ? undefined : await open(text));
      if (!target || !target.open) break;
      const refusal = await target.fromClient(text);
      if (refusal && !target.isInitialized) {
        ws.close(1002, 'first message must be initialize');
        break;
      }
    }
    queue.length = 0;
    busy = false;
    // Also when closing: the client's close frame must be read for the close to complete.
    ws.resume();
  };
  ws.on('message', (data, isBinary) => {
    if (isBinary) return; // RFD: binary frames are ignored.
    if (connection) connection.clientSeq++;
    else early++;
    queue.push(
      Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data as Buffer).toString('utf8'),
    );
    if (!busy) {
      ws.pause();
      void pump();
    }
  });

  let alive = true;
  ws.on('pong', () => (alive = true));
  ws.on('message', () => (alive = true));
  const heartbeat = setInterval(() => {
    if (!alive) {
      ws.terminate();
      return;
    }
    alive = false;
    ws.ping();
  }, heartbeatMs);
  heartbeat.unref();
  ws.on('error', () => undefined);
  ws.once('close', (code) => {
    clearInterval(heartbeat);
    clearTimeout(handshake);
    const wasClosed = closed;
    closed = true;
    if (!connection) {
      admission?.release();
      return;
    }
    connection.detach(receiver, undefined);
    // A close frame from the client is a goodbye; a dropped socket may come back and resume.
    if (!wasClosed && code !== 1006) connection.end();
  });
}
