/** The `ws` package as the remote client's WebSocket connector (Node has no WebSocket client before 22). */
import { WebSocket } from 'ws';
import { RemoteHttpError, type WebSocketConnector } from '../client-types.js';

/**
 * Opens a WebSocket with `ws`: request headers (the token), the 101's headers, flow control
 * (`pause`/`resume`), pings counted as signs of life.
 *
 * @example
 * const channel = await connectRemote(url, { webSocket: wsConnector });
 */
export const wsConnector: WebSocketConnector = (url, headers, handlers, options) =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers,
      maxPayload: options.maxPayload,
      perMessageDeflate: false,
      handshakeTimeout: 30_000,
    });
    let upgradeHeaders: Record<string, string | string[] | undefined> = {};
    let opened = false;
    ws.on('upgrade', (response) => (upgradeHeaders = response.headers));
    ws.on('unexpected-response', (request, response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < 1024) chunks.push(chunk);
        size += chunk.length;
      });
      const retryAfter = response.headers['retry-after'];
      response.on('end', () =>
        reject(
          new RemoteHttpError(
            response.statusCode ?? 0,
            Buffer.concat(chunks).toString('utf8').slice(0, 512),
            retryAfter,
          ),
        ),
      );
      response.on('error', () => reject(new RemoteHttpError(response.statusCode ?? 0, '')));
      request.on('error', () => undefined);
    });
    let tooLarge = false;
    ws.on('error', (error) => {
      if (!opened) reject(error);
      // Our own limit: ws closes the socket after this, sometimes without a close code.
      else if ((error as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') tooLarge = true;
    });
    ws.on('open', () => {
      opened = true;
      resolve({
        headers: upgradeHeaders,
        socket: {
          send: (text, done) => ws.send(text, (error) => done(error ?? undefined)),
          close: (code, reason) => ws.close(code, reason),
          terminate: () => ws.terminate(),
          pause: () => ws.pause(),
          resume: () => ws.resume(),
        },
      });
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return; // RFD: binary frames are ignored.
      handlers.message(
        Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data as Buffer).toString('utf8'),
      );
    });
    ws.on('ping', () => handlers.activity());
    ws.on('pong', () => handlers.activity());
    ws.on('close', (code, reason) => {
      if (opened)
        handlers.close(
          tooLarge ? 1009 : code,
          tooLarge ? 'inbound message too large' : reason.toString('utf8'),
        );
    });
  });
