/**
 * One client entry for both protocol versions: ask for v2, continue in whatever the agent answers.
 */
import { JsonRpcConnection, type RequestContext, type RequestOptions } from '../../jsonrpc/connection.js';
import { AcpKitError } from '../../jsonrpc/errors.js';
import type * as V1 from '../../schema/types.gen.js';
import { checkInitializeRequest as checkV1Initialize } from '../../schema/validators.gen.js';
import type * as V2 from '../../schema/v2/types.gen.js';
import { checkInitializeRequest as checkV2Initialize } from '../../schema/v2/validators.gen.js';
import type { ByteChannel } from '../../transport/types.js';
import { ClientSideConnection, PROTOCOL_VERSION, type ClientHandlers } from '../client-side.js';
import { unsupportedAnswer } from '../protocol-version.js';
import {
  ADOPT_INITIALIZE,
  HANDLE_NOTIFICATION,
  HANDLE_REQUEST,
  type TypedConnection,
  type TypedConnectionOptions,
} from '../typed-connection.js';
import {
  ClientSideConnection as V2ClientSideConnection,
  type ClientHandlers as V2ClientHandlers,
} from '../v2/client-side.js';
import { PROTOCOL_VERSION_V2 } from '../v2/initialize.js';

/** The client implementations, one per protocol version it is willing to speak (at least one). */
export interface ClientVersions {
  v1?: ClientHandlers | ((connection: ClientSideConnection) => ClientHandlers);
  v2?: V2ClientHandlers | ((connection: V2ClientSideConnection) => V2ClientHandlers);
}

export interface ConnectAgentOptions extends TypedConnectionOptions {
  /** Who we are: sent as v2 `info` and as v1 `clientInfo`. */
  info: V2.Implementation;
  /** The v2 `capabilities` (elicitation, terminal auth). */
  capabilities?: V2.ClientCapabilities;
  /** The v1 `clientCapabilities` (fs, terminal, notices...), for an agent that answers in v1. */
  clientCapabilities?: V1.ClientCapabilities;
  /**
   * Ask for this version only, with its own fields only (tests; a catalog that knows the agent).
   * Default: 2 with both field sets when both versions are configured, else the one configured.
   */
  protocolVersion?: 1 | 2;
  /** Options of the `initialize` request (timeout, abort). */
  request?: RequestOptions;
  /**
   * Called with the chosen face before anything the agent sent while `initialize` was answered is
   * handed to it: the place to register extension handlers (`onExtNotification`) that must see it.
   */
  onConnection?: (connection: TypedConnection) => void;
}

/** The face the agent's answer chose. */
export type NegotiatedClientConnection =
  { version: 1; connection: ClientSideConnection } | { version: 2; connection: V2ClientSideConnection };

/**
 * Connects to an agent over `channel`, speaking v2 when it can and v1 otherwise.
 *
 * Sends one `initialize` asking for version 2 with the v2 `capabilities`/`info` and, beside them,
 * the v1 `clientCapabilities`/`clientInfo`: a v1-only agent reads its own fields from that same
 * message (both schemas allow the other's keys), so it keeps the fs and terminal it would have had.
 * An answer of 2 continues with the v2 connection, 1 with the v1 one, on the same engine; anything
 * else (or an error) closes the connection and rejects (`UNSUPPORTED_PROTOCOL_VERSION`, or the
 * agent's `ProtocolError`, -32022 when it supports nothing at or below 2).
 *
 * @example
 * const { version, connection } = await connectAgent(agent.channel, { v1: v1Handlers, v2: v2Handlers }, {
 *   info: { name: 'my-client', version: '1.0.0' },
 *   clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
 * });
 */
export async function connectAgent(
  channel: ByteChannel,
  versions: ClientVersions,
  options: ConnectAgentOptions,
): Promise<NegotiatedClientConnection> {
  const asked = options.protocolVersion ?? (versions.v2 ? PROTOCOL_VERSION_V2 : PROTOCOL_VERSION);
  if (!(asked === PROTOCOL_VERSION_V2 ? versions.v2 : versions.v1)) {
    throw new AcpKitError(
      'INVALID_ARGUMENT',
      `connectAgent: no v${asked} handlers to speak version ${asked}`,
    );
  }
  const params = initializeParams(asked, !!versions.v1 && !!versions.v2, options);
  // Forced to a version, only that version's answer is accepted.
  const accepts = (v: 1 | 2) =>
    (options.protocolVersion === undefined || options.protocolVersion === v) &&
    !!(v === PROTOCOL_VERSION_V2 ? versions.v2 : versions.v1);
  const rpc = new JsonRpcConnection(channel, { peerName: 'agent', ...options });
  // Until the answer chooses a face, what the agent sends waits for it, in wire order: a request
  // waits for what came before it to start, a notification for it to finish (as the inbound queue
  // does). Not in the queue itself: a notification sent before the answer would hold the answer too.
  const face = deferredFace();
  let held: Promise<TypedConnection> = face.promise;
  const chain = (next: Promise<TypedConnection>) => {
    held = next;
    held.catch(() => undefined);
  };
  rpc.onUnhandledRequest((p, ctx) => {
    const started = held.then((f) => ({ f, result: startRequest(f, ctx.method, p, ctx) }));
    chain(started.then(({ f }) => f));
    return started.then(({ result }) => result);
  });
  rpc.onUnhandledNotification((p, { method }) => {
    chain(
      held.then(async (f) => {
        try {
          await f[HANDLE_NOTIFICATION](method, p);
        } catch (error) {
          options.logger?.log('warn', 'notification handler failed', { method, error });
        }
        return f;
      }),
    );
    return undefined;
  });
  rpc.start();
  try {
    const result = await rpc.request('initialize', params, options.request);
    const answered = (result as { protocolVersion?: unknown } | null)?.protocolVersion;
    let negotiated: NegotiatedClientConnection;
    if (answered === PROTOCOL_VERSION_V2 && accepts(2)) {
      negotiated = { version: 2, connection: new V2ClientSideConnection(rpc, versions.v2!, options) };
    } else if (answered === PROTOCOL_VERSION && accepts(1)) {
      negotiated = { version: 1, connection: new ClientSideConnection(rpc, versions.v1!, options) };
    } else {
      throw unsupportedAnswer(answered, ([1, 2] as const).filter(accepts));
    }
    negotiated.connection[ADOPT_INITIALIZE](result);
    options.onConnection?.(negotiated.connection);
    rpc.onUnhandledRequest(undefined);
    rpc.onUnhandledNotification(undefined);
    face.resolve(negotiated.connection);
    return negotiated;
  } catch (error) {
    face.reject(error);
    await rpc.close();
    throw error;
  }
}

/** The `initialize` params: v2 fields, v1 fields, or (by default, with both versions) both. */
function initializeParams(asked: 1 | 2, both: boolean, o: ConnectAgentOptions): Record<string, unknown> {
  const v1 = { clientCapabilities: o.clientCapabilities ?? {}, clientInfo: o.info };
  const v2 = { capabilities: o.capabilities ?? {}, info: o.info };
  const params =
    asked === PROTOCOL_VERSION
      ? { protocolVersion: PROTOCOL_VERSION, ...v1 }
      : {
          protocolVersion: PROTOCOL_VERSION_V2,
          ...v2,
          ...(both && o.protocolVersion === undefined ? v1 : {}),
        };
  if (o.validateOutgoing) {
    const valid = asked === PROTOCOL_VERSION ? checkV1Initialize(params) : checkV2Initialize(params);
    if (!valid || ('clientCapabilities' in params && !checkV1Initialize(params))) {
      throw new AcpKitError('INVALID_ARGUMENT', 'Invalid initialize params', { method: 'initialize' });
    }
  }
  return params;
}

/** Starts a held request; what it throws becomes its answer, not the chain's failure. */
function startRequest(f: TypedConnection, method: string, params: unknown, ctx: RequestContext): unknown {
  try {
    return f[HANDLE_REQUEST](method, params, ctx);
  } catch (error) {
    return Promise.reject(error);
  }
}

function deferredFace(): {
  promise: Promise<TypedConnection>;
  resolve: (face: TypedConnection) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (face: TypedConnection) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<TypedConnection>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Held messages fail with the connection; nobody else waits on this.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
