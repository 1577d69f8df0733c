/**
 * Connecting to a remote agent: `connectRemote(url)` gives a {@link RemoteChannel} the engine runs
 * on like on a process's stdio. Runtime-neutral; `@acp-kit/protocol/remote/node` adds the `ws`
 * WebSocket connector.
 */
import { AcpKitError } from '../jsonrpc/errors.js';
import { BusyRetry } from './busy-retry.js';
import { httpChannel } from './client-http.js';
import {
  refusedError,
  RemoteHttpError,
  redactUrl,
  type RemoteChannel,
  type RemoteClientOptions,
} from './client-types.js';
import { openWebSocketChannel } from './client-ws.js';

/** Statuses that mean "no" whatever the profile: no point trying Streamable HTTP after them. */
const FINAL_STATUSES = new Set([401, 403, 429, 503]);

/**
 * Connects to an `http(s)://…/acp` endpoint. `profile: 'auto'` (default) tries the WebSocket
 * upgrade first and uses Streamable HTTP when the server refuses it; Streamable HTTP sends
 * nothing until the engine writes `initialize`.
 *
 * @example
 * const channel = await connectRemote('https://devbox.example/acp', { token, webSocket: wsConnector });
 * const client = new ClientSideConnection(channel, handlers);
 */
export async function connectRemote(url: string, options: RemoteClientOptions = {}): Promise<RemoteChannel> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AcpKitError('INVALID_ARGUMENT', `not a URL: ${url.slice(0, 200)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new AcpKitError(
      'INVALID_ARGUMENT',
      `a remote agent URL starts with http:// or https:// (got ${parsed.protocol})`,
    );
  const profile = options.profile ?? 'auto';
  if (profile === 'http') return httpChannel(url, options);
  const connector = options.webSocket;
  if (!connector) {
    if (profile === 'websocket')
      throw new AcpKitError('INVALID_ARGUMENT', 'no WebSocket connector given (options.webSocket)');
    return httpChannel(url, options);
  }
  const busy = new BusyRetry(url, options, 'websocket', options.signal ?? new AbortController().signal);
  for (;;) {
    try {
      return await openWebSocketChannel(url, options, connector);
    } catch (error) {
      if (!(error instanceof RemoteHttpError)) {
        const message = error instanceof Error ? error.message : String(error);
        throw new AcpKitError('CONNECTION_CLOSED', `cannot reach ${redactUrl(url)}: ${message}`, {}, error);
      }
      // Full: asked again after its Retry-After, a few times.
      if (error.status === 503) {
        if (await busy.wait(error.retryAfter)) continue;
        throw busy.error(error.message);
      }
      if (profile === 'websocket' || FINAL_STATUSES.has(error.status))
        throw refusedError(error.status, url, error.message);
      // The server does not take WebSockets here: the RFD's other profile.
      options.logger?.log('info', 'WebSocket upgrade refused, using Streamable HTTP', {
        status: error.status,
      });
      return httpChannel(url, options);
    }
  }
}
