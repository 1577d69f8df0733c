/** An SSE response as the receiver of one stream of a remote connection. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { encodeSseEvent, SSE_KEEP_ALIVE } from '../sse.js';
import type { StreamReceiver } from '../out-stream.js';
import type { RemoteConnection } from '../server-connection.js';
import { EVENT_STREAM_MEDIA_TYPE } from '../wire.js';

/**
 * Answers a GET with the stream (`session` undefined: the connection-scoped one), replaying what
 * follows `lastEventId`; 409 when another receiver holds it and this is no resumption, 410 when
 * the events after `lastEventId` are no longer kept.
 */
export function attachSse(
  connection: RemoteConnection,
  session: string | undefined,
  lastEventId: number | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  heartbeatMs: number,
): void {
  let detached = false;
  let backedUp = false;
  const receiver: StreamReceiver = {
    send: (id, data) => {
      const ok = res.write(encodeSseEvent(id, data));
      if (!ok) backedUp = true;
      return ok;
    },
    detach: () => {
      if (detached) return;
      detached = true;
      res.end();
    },
  };
  res.statusCode = 200;
  res.setHeader('Content-Type', EVENT_STREAM_MEDIA_TYPE);
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  // Proxies such as nginx would otherwise buffer the stream.
  res.setHeader('X-Accel-Buffering', 'no');
  const result = connection.attach(receiver, session, lastEventId);
  if ('status' in result || !result.ok) {
    detached = true;
    res.removeHeader('Content-Type');
    res.removeHeader('Cache-Control');
    const [status, text] =
      'status' in result
        ? [result.status, result.message]
        : result.reason === 'busy'
          ? [409, 'The stream already has a receiver']
          : result.reason === 'gap'
            ? [410, `Events after ${lastEventId} are no longer kept (oldest kept: ${result.oldest})`]
            : [400, 'Invalid Last-Event-ID'];
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(text);
    return;
  }
  if (!res.headersSent) res.flushHeaders();
  const keepAlive = setInterval(() => {
    if (!backedUp && !detached) res.write(SSE_KEEP_ALIVE);
  }, heartbeatMs);
  keepAlive.unref();
  res.on('drain', () => {
    backedUp = false;
    connection.drained(receiver, session);
  });
  res.once('close', () => {
    clearInterval(keepAlive);
    detached = true;
    connection.detach(receiver, session);
  });
  req.socket.on('error', () => undefined);
}
