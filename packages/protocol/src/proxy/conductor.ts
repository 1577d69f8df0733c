/**
 * The conductor of a proxy chain (unstable ACP v1, RFD "Proxy Chains"): one agent to the client,
 * made of proxies in front of a final agent. Runtime-neutral: it routes between channels it is
 * given; `@acp-kit/protocol/node/chain`'s `startChain` (its own entry: the unstable schema's validators stay out of `/node`) spawns the components and owns their lifetimes.
 *
 * Routing, per hop (every hop is its own JSON-RPC connection, so ids are mapped per hop and a
 * `$/cancel_request` from the sender aborts the forwarded request, which cancels it on the next hop):
 * - client → first component: plain; `initialize` becomes `proxy/initialize` when it is a proxy.
 * - proxy → conductor, `proxy/successor`: unwrapped and sent plain to the next component.
 * - proxy or agent → conductor, plain: towards the client; wrapped in `proxy/successor` for the
 *   previous proxy, plain for the client.
 * Answers come back unchanged. When a component ends, the chain is over: every request still
 * waiting for an answer gets an error naming that component.
 */
import { JsonRpcConnection } from '../jsonrpc/connection.js';
import type { JsonRpcConnectionOptions } from '../jsonrpc/connection-types.js';
import { AcpKitError, ErrorCodes, ProtocolError } from '../jsonrpc/errors.js';
import type { ByteChannel } from '../transport/types.js';
import { PROXY_METHODS, unwrapSuccessor, wrapSuccessor, type WrappedMessage } from './envelope.js';

/** One component of the chain; the last one is the final agent, the others are proxies. */
export interface ChainComponent {
  /** How errors and logs name it (e.g. `trace proxy`, `agent`). */
  readonly name: string;
  readonly channel: ByteChannel;
}

export interface ConductorOptions extends Pick<JsonRpcConnectionOptions, 'logger' | 'maxMessageBytes'> {
  /** Called with every frame on every hop: `hop` is `client` or a component's index. */
  trace?: (hop: 'client' | number, direction: 'in' | 'out', text: string) => void;
}

/** Why the chain ended: the component that ended first (or the client) and what it said. */
export interface ChainEnd {
  /** `client`, or the index of the component. */
  readonly who: 'client' | number;
  readonly name: string;
  readonly reason: AcpKitError;
}

type Kind = 'request' | 'notification';

/**
 * Routes messages between a client channel and the chain's components.
 *
 * @example
 * const conductor = new Conductor(clientChannel, [{ name: 'trace proxy', channel: a }, { name: 'agent', channel: b }]);
 * const end = await conductor.ended; // the first to go; then stop the others
 */
export class Conductor {
  /** Resolves with the first end: of the client or of a component. */
  readonly ended: Promise<ChainEnd>;
  readonly client: JsonRpcConnection;
  readonly components: readonly JsonRpcConnection[];
  private end: ChainEnd | undefined;
  private resolveEnded!: (end: ChainEnd) => void;
  /** Rejects every request still in flight through the conductor once the chain is over. */
  private readonly over: Promise<never>;
  private rejectOver!: (error: ProtocolError) => void;

  constructor(
    clientChannel: ByteChannel,
    private readonly parts: readonly ChainComponent[],
    options: ConductorOptions = {},
  ) {
    if (parts.length === 0) throw new AcpKitError('INVALID_ARGUMENT', 'a chain needs at least an agent');
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    this.over = new Promise<never>((_resolve, reject) => (this.rejectOver = reject));
    this.over.catch(() => undefined);
    const { trace, ...common } = options;
    this.client = new JsonRpcConnection(clientChannel, {
      ...common,
      peerName: 'client',
      trace: trace && ((direction, text) => trace('client', direction, text)),
    });
    this.components = parts.map(
      (part, index) =>
        new JsonRpcConnection(part.channel, {
          ...common,
          peerName: part.name,
          trace: trace && ((direction, text) => trace(index, direction, text)),
        }),
    );
    this.wireClient();
    this.components.forEach((connection, index) => this.wireComponent(connection, index));
    void this.client.closed.then((reason) => this.finish({ who: 'client', name: 'client', reason }));
    this.components.forEach((connection, index) => {
      void connection.closed.then((reason) => this.finish({ who: index, name: this.nameOf(index), reason }));
    });
  }

  /** Starts reading from every channel. */
  start(): void {
    this.client.start();
    for (const connection of this.components) connection.start();
  }

  /** Closes every connection (the components' processes are the spawner's to stop). */
  async close(): Promise<void> {
    this.finish({
      who: 'client',
      name: 'client',
      reason: new AcpKitError('CONNECTION_CLOSED', 'the chain was closed'),
    });
    await Promise.all([this.client.close(), ...this.components.map((c) => c.close())]);
  }

  private nameOf(index: number): string {
    return this.parts[index]?.name ?? `component ${index}`;
  }

  private isProxy(index: number): boolean {
    return index < this.parts.length - 1;
  }

  private wireClient(): void {
    this.client.onUnhandledRequest((params, ctx) =>
      this.down(0, 'request', message(ctx.method, params), ctx.signal),
    );
    this.client.onUnhandledNotification((params, ctx) =>
      this.down(0, 'notification', message(ctx.method, params)),
    );
  }

  private wireComponent(connection: JsonRpcConnection, index: number): void {
    if (this.isProxy(index)) {
      connection.onRequest(PROXY_METHODS.proxy_successor, (params, ctx) =>
        this.down(index + 1, 'request', unwrapSuccessor(params), ctx.signal),
      );
      connection.onNotification(PROXY_METHODS.proxy_successor, (params) =>
        this.down(index + 1, 'notification', unwrapSuccessor(params)),
      );
    }
    connection.onUnhandledRequest((params, ctx) =>
      this.up(index - 1, 'request', message(ctx.method, params), ctx.signal),
    );
    connection.onUnhandledNotification((params, ctx) =>
      this.up(index - 1, 'notification', message(ctx.method, params)),
    );
  }

  /** Delivers a message to component `target` from its predecessor. */
  private down(target: number, kind: Kind, msg: WrappedMessage, signal?: AbortSignal): unknown {
    const connection = this.components[target];
    if (!connection) throw ProtocolError.internalError({ reason: 'no successor' });
    const method =
      msg.method === 'initialize' && this.isProxy(target) ? PROXY_METHODS.proxy_initialize : msg.method;
    if (kind === 'notification') return this.notify(connection, method, msg.params);
    return this.request(connection, target, method, msg.params, signal);
  }

  /** Delivers a message to component `target` (-1: the client) from its successor. */
  private up(target: number, kind: Kind, msg: WrappedMessage, signal?: AbortSignal): unknown {
    if (target < 0) {
      if (kind === 'notification') return this.notify(this.client, msg.method, msg.params);
      return this.request(this.client, 'client', msg.method, msg.params, signal);
    }
    const connection = this.components[target];
    if (!connection) throw ProtocolError.internalError({ reason: 'no predecessor' });
    const envelope = wrapSuccessor(msg);
    if (kind === 'notification') return this.notify(connection, PROXY_METHODS.proxy_successor, envelope);
    return this.request(connection, target, PROXY_METHODS.proxy_successor, envelope, signal);
  }

  private notify(connection: JsonRpcConnection, method: string, params: unknown): Promise<void> {
    // A notification for a component that is gone has nowhere to go; the chain is ending anyway.
    return connection.notify(method, params).catch(() => undefined);
  }

  private request(
    connection: JsonRpcConnection,
    target: 'client' | number,
    method: string,
    params: unknown,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const answer = connection.request(method, params, { signal }).catch((error: unknown) => {
      if (error instanceof ProtocolError) throw error;
      throw this.chainError(target, error);
    });
    return Promise.race([answer, this.over]);
  }

  /** A local failure on the way (the component exited, the connection closed) as an error for the sender. */
  private chainError(target: 'client' | number, error: unknown): ProtocolError {
    const end = this.end;
    if (end) return endError(end);
    const name = target === 'client' ? 'client' : this.nameOf(target);
    const text = error instanceof Error ? error.message : String(error);
    return new ProtocolError(ErrorCodes.InternalError, `chain: ${name}: ${text}`, { component: name });
  }

  private finish(end: ChainEnd): void {
    if (this.end) return;
    this.end = end;
    this.rejectOver(endError(end));
    this.resolveEnded(end);
  }
}

function endError(end: ChainEnd): ProtocolError {
  const what = end.who === 'client' ? 'the client disconnected' : `${end.name} ended: ${end.reason.message}`;
  return new ProtocolError(ErrorCodes.InternalError, `proxy chain stopped: ${what}`, {
    component: end.name,
  });
}

function message(method: string, params: unknown): WrappedMessage {
  return params === undefined ? { method } : { method, params };
}
