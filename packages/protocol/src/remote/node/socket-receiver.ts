/** A WebSocket (from `ws`) as the receiver of a remote connection's stream, and the source of its client messages. */
import type { WebSocket } from 'ws';
import type { StreamReceiver } from '../out-stream.js';
import type { RemoteConnection } from '../server-connection.js';

/** Unsent bytes past which the socket counts as backed up; it is drained again at half. */
const SOCKET_HIGH_WATER = 256 * 1024;
/** Close code when the events a resuming client needs are no longer kept (ours, 4000–4999 range). */
export const CLOSE_EVENTS_LOST = 4410;

/**
 * Runs a connection over an upgraded socket: its frames go to the agent in order (the socket is
 * paused while the agent does not read), the stream's events go out as text frames, pings detect a
 * vanished client. `lastEventId`: the socket resumes the connection after that event.
 */
export function attachSocket(
  connection: RemoteConnection,
  ws: WebSocket,
  lastEventId: number | undefined,
  heartbeatMs: number,
): void {
  let unsent = 0;
  let backedUp = false;
  let closed = false;
  const receiver: StreamReceiver = {
    send: (_id, data) => {
      if (closed) return true;
      unsent += data.length;
      ws.send(data, () => {
        unsent -= data.length;
        if (backedUp && unsent <= SOCKET_HIGH_WATER / 2) {
          backedUp = false;
          connection.drained(receiver, undefined);
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
  const result = connection.attach(receiver, undefined, lastEventId);
  if ('status' in result || !result.ok) {
    closed = true;
    const gap = !('status' in result) && result.reason === 'gap';
    ws.close(gap ? CLOSE_EVENTS_LOST : 1008, gap ? 'events lost' : 'cannot resume');
    return;
  }

  // Client frames, one at a time and in order; the socket is paused while one waits for the agent.
  const queue: string[] = [];
  let busy = false;
  const pump = async (): Promise<void> => {
    busy = true;
    while (queue.length > 0 && !closed) {
      const text = queue.shift() as string;
      const refusal = await connection.fromClient(text);
      if (refusal && !connection.isInitialized) {
        // RFD: the first message is `initialize`.
        ws.close(1002, 'first message must be initialize');
        break;
      }
    }
    busy = false;
    if (!closed) ws.resume();
  };
  ws.on('message', (data, isBinary) => {
    if (isBinary || closed) return; // RFD: binary frames are ignored.
    connection.clientSeq++;
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
    const wasClosed = closed;
    closed = true;
    connection.detach(receiver, undefined);
    // A close frame from the client is a goodbye; a dropped socket may come back and resume.
    if (!wasClosed && code !== 1006) connection.end();
  });
}
