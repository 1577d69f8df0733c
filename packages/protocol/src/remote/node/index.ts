/**
 * `@acp-kit/protocol/remote/node`: the remote transport on Node: `listenRemote` serves a
 * `RemoteServer` (HTTP + WebSocket on one endpoint), `wsConnector` opens WebSockets with `ws`, and
 * `connectRemoteAgent` is `connectRemote` with that connector.
 */
import { connectRemote } from '../client.js';
import type { RemoteChannel, RemoteClientOptions } from '../client-types.js';
import { wsConnector } from './ws-connector.js';

export { listenRemote, isLoopbackHost } from './listen.js';
export type { ListenRemoteOptions, RemoteListener } from './listen.js';
export { wsConnector } from './ws-connector.js';
export { CLOSE_EVENTS_LOST, CLOSE_NO_INITIALIZE, CLOSE_TRY_AGAIN_LATER } from './socket-receiver.js';

/**
 * `connectRemote` with the `ws` WebSocket connector.
 *
 * @example
 * const channel = await connectRemoteAgent('http://127.0.0.1:8765/acp', { token });
 */
export function connectRemoteAgent(url: string, options: RemoteClientOptions = {}): Promise<RemoteChannel> {
  return connectRemote(url, { webSocket: wsConnector, ...options });
}
