/**
 * One agent entry for both protocol versions: each connection is answered in the version its
 * `initialize` asks for, by that version's face, on the one JSON-RPC engine that read it.
 */
import { JsonRpcConnection, type RequestContext } from '../../jsonrpc/connection.js';
import { AcpKitError, ErrorCodes, ProtocolError } from '../../jsonrpc/errors.js';
import { parseWith, type Parser } from '../../schema/runtime.js';
import { parseInitializeRequest as parseV1Initialize } from '../../schema/validators.gen.js';
import { parseInitializeRequest as parseV2Initialize } from '../../schema/v2/validators.gen.js';
import type { ByteChannel } from '../../transport/types.js';
import { AgentSideConnection, type AgentHandlers } from '../agent-side.js';
import { notInitialized } from '../initialize-gate.js';
import { requestedProtocolVersion } from '../protocol-version.js';
import { HANDLE_REQUEST, type TypedConnectionOptions } from '../typed-connection.js';
import {
  AgentSideConnection as V2AgentSideConnection,
  type AgentHandlers as V2AgentHandlers,
} from '../v2/agent-side.js';
import { v2InitializeParams } from '../v2/initialize.js';
import { selectProtocolVersion, v1InitializeParams } from './select-version.js';

/** The implementations an agent serves, one per protocol version (at least one). */
export interface AgentVersions {
  v1?: AgentHandlers | ((connection: AgentSideConnection) => AgentHandlers);
  v2?: V2AgentHandlers | ((connection: V2AgentSideConnection) => V2AgentHandlers);
}

/** The face a connection was given by its first valid `initialize`. */
export type NegotiatedAgentConnection =
  { version: 1; connection: AgentSideConnection } | { version: 2; connection: V2AgentSideConnection };

/** A connection served by {@link serveAgent}. */
export interface ServedAgent {
  /** The engine underneath (one for the whole connection, whatever the version). */
  readonly rpc: JsonRpcConnection;
  /** The chosen face, once a valid `initialize` arrived. */
  readonly negotiated: NegotiatedAgentConnection | undefined;
  /** Resolves with the chosen face, or with undefined if the connection ends before one is chosen. */
  readonly chosen: Promise<NegotiatedAgentConnection | undefined>;
  /** Resolves with the reason once the connection has ended. */
  readonly closed: Promise<AcpKitError>;
  close(): Promise<void>;
}

/**
 * Serves an agent over `channel` in ACP v1, the v2 draft, or both, chosen per connection.
 *
 * Until a valid `initialize` arrives, as the SDK's `AgentProtocolRouter` does: other requests are
 * answered -32600 (`Not initialized`), notifications and responses are ignored, a batch gets one
 * -32600, and a failed `initialize` (bad params, a version no face serves: -32022 with
 * `{requested, supported}`) leaves the connection open for another. The first valid one picks the
 * highest served version at or below the requested one (v1 only: always 1, v1's own rule), makes
 * that version's connection over the same engine and lets it handle that very `initialize`: no
 * frame is lost or reordered. The connection is never re-routed; a repeated `initialize` goes to the
 * chosen face, which applies its version's rules. See docs/protocol-versions.md.
 *
 * @example
 * const served = serveAgent(stdioChannel(), {
 *   v1: (conn) => v1Handlers(conn),
 *   v2: (conn) => v2Handlers(conn),
 * });
 * const chosen = await served.chosen; // { version: 2, connection } for a v2 client
 */
export function serveAgent(
  channel: ByteChannel,
  versions: AgentVersions,
  options: TypedConnectionOptions = {},
): ServedAgent {
  if (!versions.v1 && !versions.v2) {
    throw new AcpKitError('INVALID_ARGUMENT', 'serveAgent needs a v1 or a v2 implementation');
  }
  const rpc = new JsonRpcConnection(channel, { peerName: 'client', ...options });
  const router = new Router(rpc, versions, options);
  rpc.start();
  return router;
}

class Router implements ServedAgent {
  negotiated: NegotiatedAgentConnection | undefined;
  readonly chosen: Promise<NegotiatedAgentConnection | undefined>;
  private resolveChosen!: (value: NegotiatedAgentConnection | undefined) => void;

  constructor(
    readonly rpc: JsonRpcConnection,
    private readonly versions: AgentVersions,
    private readonly options: TypedConnectionOptions,
  ) {
    this.chosen = new Promise((resolve) => {
      this.resolveChosen = resolve;
    });
    void rpc.closed.then(() => this.resolveChosen(this.negotiated));
    rpc.onRequest('initialize', (params, ctx) => this.route(params, ctx));
    rpc.onUnhandledRequest((_params, ctx) => {
      throw notInitialized(ctx.method);
    });
    rpc.onUnhandledNotification(() => undefined);
  }

  get closed(): Promise<AcpKitError> {
    return this.rpc.closed;
  }

  close(): Promise<void> {
    return this.rpc.close();
  }

  /** Picks the version for this `initialize` (or throws, staying unrouted) and hands it over. */
  private route(params: unknown, ctx: RequestContext): unknown {
    const requested = requestedProtocolVersion(params);
    const version = selectProtocolVersion(requested, { v1: !!this.versions.v1, v2: !!this.versions.v2 });
    const p = params as object;
    let prepared: object;
    if (version === 2) {
      if (typeof ctx.id === 'number' && !Number.isInteger(ctx.id)) {
        throw new ProtocolError(ErrorCodes.InvalidRequest, 'ACP v2 request ids must be strings or integers');
      }
      prepared = v2InitializeParams(p, requested);
      assertParses(parseV2Initialize, prepared);
    } else {
      prepared = v1InitializeParams(p, requested);
      assertParses(parseV1Initialize, prepared);
    }
    // Synchronous from here on: the face's handlers are in place before the next frame is dispatched.
    const negotiated: NegotiatedAgentConnection =
      version === 2
        ? { version, connection: new V2AgentSideConnection(this.rpc, this.versions.v2!, this.options) }
        : { version, connection: new AgentSideConnection(this.rpc, this.versions.v1!, this.options) };
    this.rpc.onUnhandledRequest(undefined);
    this.rpc.onUnhandledNotification(undefined);
    this.negotiated = negotiated;
    this.resolveChosen(negotiated);
    return negotiated.connection[HANDLE_REQUEST]('initialize', prepared, ctx);
  }
}

/** Throws the -32602 the chosen face would answer, so that a bad `initialize` leaves us unrouted. */
function assertParses(parse: Parser, params: object): void {
  const r = parseWith(parse, params);
  if (!r.ok) {
    const path = r.error.path ? `params.${r.error.path}` : 'params';
    throw ProtocolError.invalidParams({ path, message: r.error.message });
  }
}
