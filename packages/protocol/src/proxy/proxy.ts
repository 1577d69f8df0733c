/**
 * Writing a proxy of a chain: a component that sits between the client and the agent and sees
 * every message in both directions. Runtime-neutral: give it the channel to its conductor (over
 * stdio: `stdioChannel()` from `@acp-kit/protocol/node`).
 */
import { JsonRpcConnection } from '../jsonrpc/connection.js';
import { ErrorCodes, ProtocolError } from '../jsonrpc/errors.js';
import type { JsonRpcConnectionOptions, RequestOptions } from '../jsonrpc/connection-types.js';
import type { RequestId } from '../jsonrpc/types.js';
import type { ByteChannel } from '../transport/types.js';
import { PROXY_METHODS, unwrapSuccessor, wrapSuccessor, type WrappedMessage } from './envelope.js';
import { passThroughChannel } from './pass-through.js';

/** One message a proxy intercepts. Requests carry the id they have on this proxy's hop. */
export interface InterceptedMessage extends WrappedMessage {
  readonly kind: 'request' | 'notification';
  /** The request's id on the hop it came in by (stable while it is pending); absent for notifications. */
  readonly id?: RequestId;
  /** Aborted when the sender cancels the request (`$/cancel_request`) or the chain ends. */
  readonly signal?: AbortSignal;
}

/**
 * Sends a message on in its direction (the original when called without one) and resolves with
 * the answer of a request (undefined for a notification). A `ProtocolError` from further along
 * rejects it unchanged.
 */
export type Forward = (message?: WrappedMessage) => Promise<unknown>;

/**
 * Decides what happens to one message: forward it (changed or not), answer a request itself
 * (return the result or throw a `ProtocolError`), or drop a notification (return without
 * forwarding). What it returns for a request is the answer sent back.
 */
export type Interceptor = (message: InterceptedMessage, forward: Forward) => unknown;

export interface ProxyHandlers {
  /** Messages travelling from the client towards the agent (`initialize` included). Default: forward. */
  fromClient?: Interceptor;
  /** Messages travelling from the agent towards the client. Default: forward. */
  fromAgent?: Interceptor;
}

/** Diagnostics of the proxy's connection to its conductor. */
export type ProxyOptions = Pick<JsonRpcConnectionOptions, 'logger' | 'trace'>;

/** Sends messages of the proxy's own in one direction. */
export interface ProxySender {
  request(method: string, params?: unknown, options?: RequestOptions): Promise<unknown>;
  notify(method: string, params?: unknown): Promise<void>;
}

/** A running proxy; `closed` resolves when its conductor goes away. */
export interface RunningProxy {
  readonly connection: JsonRpcConnection;
  /** Messages of the proxy's own towards the client (e.g. a `session/update` it adds). */
  readonly toClient: ProxySender;
  /** Messages of the proxy's own towards the agent. */
  readonly toAgent: ProxySender;
  readonly closed: Promise<unknown>;
  close(): Promise<void>;
}

const passThrough: Interceptor = (_message, forward) => forward();

/**
 * Runs a proxy over the channel to its conductor. A message's direction is what the envelope
 * says: `proxy/successor` from the conductor comes from the agent's side, anything else from the
 * client's; forwarding does the opposite wrapping.
 *
 * @example
 * runProxy(stdioChannel(), {
 *   fromClient: (message, forward) =>
 *     message.method === 'session/prompt' ? forward(addContext(message)) : forward(),
 * });
 */
export function runProxy(
  channel: ByteChannel,
  handlers: ProxyHandlers,
  options: ProxyOptions = {},
): RunningProxy {
  // A direction without an interceptor is passed on as text, never reaching the engine.
  const pass = { fromClient: !handlers.fromClient, fromAgent: !handlers.fromAgent };
  const engineChannel =
    pass.fromClient || pass.fromAgent
      ? passThroughChannel(channel, { ...pass, trace: options.trace })
      : channel;
  const connection = new JsonRpcConnection(engineChannel, { ...options, peerName: 'conductor' });
  const fromClient = handlers.fromClient ?? passThrough;
  const fromAgent = handlers.fromAgent ?? passThrough;

  // Towards the agent: wrapped; a `proxy/initialize` goes on as `initialize`.
  const toSuccessor =
    (original: WrappedMessage, kind: InterceptedMessage['kind'], signal?: AbortSignal): Forward =>
    (message = original) =>
      kind === 'request'
        ? connection.request(PROXY_METHODS.proxy_successor, wrapSuccessor(message), { signal })
        : connection.notify(PROXY_METHODS.proxy_successor, wrapSuccessor(message));
  // Towards the client: plain.
  const toPredecessor =
    (original: WrappedMessage, kind: InterceptedMessage['kind'], signal?: AbortSignal): Forward =>
    (message = original) =>
      kind === 'request'
        ? connection.request(message.method, message.params, { signal })
        : connection.notify(message.method, message.params);

  connection.onRequest(PROXY_METHODS.proxy_initialize, (params, ctx) => {
    const message = { method: 'initialize', params };
    return fromClient(
      { ...message, kind: 'request', id: ctx.id, signal: ctx.signal },
      toSuccessor(message, 'request', ctx.signal),
    );
  });
  // Only a conductor can give a proxy its successor: run directly by a client it has none.
  connection.onRequest('initialize', () => {
    throw new ProtocolError(
      ErrorCodes.InvalidRequest,
      'this is an ACP proxy: run it inside a proxy chain (e.g. `acp chain`), which sends proxy/initialize',
    );
  });
  connection.onRequest(PROXY_METHODS.proxy_successor, (params, ctx) => {
    const message = unwrapSuccessor(params);
    return fromAgent(
      { ...message, kind: 'request', id: ctx.id, signal: ctx.signal },
      toPredecessor(message, 'request', ctx.signal),
    );
  });
  connection.onNotification(PROXY_METHODS.proxy_successor, (params) => {
    const message = unwrapSuccessor(params);
    return fromAgent({ ...message, kind: 'notification' }, toPredecessor(message, 'notification'));
  });
  connection.onUnhandledRequest((params, ctx) => {
    const message = withParams(ctx.method, params);
    return fromClient(
      { ...message, kind: 'request', id: ctx.id, signal: ctx.signal },
      toSuccessor(message, 'request', ctx.signal),
    );
  });
  connection.onUnhandledNotification((params, ctx) => {
    const message = withParams(ctx.method, params);
    return fromClient({ ...message, kind: 'notification' }, toSuccessor(message, 'notification'));
  });
  connection.start();
  return {
    connection,
    toClient: {
      request: (method, params, requestOptions) => connection.request(method, params, requestOptions),
      notify: (method, params) => connection.notify(method, params),
    },
    toAgent: {
      request: (method, params, requestOptions) =>
        connection.request(PROXY_METHODS.proxy_successor, wrapSuccessor({ method, params }), requestOptions),
      notify: (method, params) =>
        connection.notify(PROXY_METHODS.proxy_successor, wrapSuccessor({ method, params })),
    },
    closed: connection.closed,
    close: () => connection.close(),
  };
}

function withParams(method: string, params: unknown): WrappedMessage {
  return params === undefined ? { method } : { method, params };
}
