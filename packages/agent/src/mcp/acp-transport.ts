/**
 * An MCP client transport whose messages travel over the ACP connection as `mcp/message` (unstable
 * MCP-over-ACP), for servers the client declared as `{ type: "acp", name, serverId }`.
 *
 * The binding speaks MCP 2026-07-28 only (stateless: no `initialize`, the version and the client's
 * capabilities in every request's `_meta`). The MCP SDK 2.x `Client` speaks that version itself
 * when pinned to it (`server/discover` at connect, the per-request envelope on every request), so
 * this transport only carries messages: each outbound request is one outer `mcp/message` request,
 * and the server's request-scoped notifications come back as `mcp/message` notifications. Like the
 * SDK's streamable HTTP transport it has a stream per request (`hasPerRequestStream`): the client
 * cancels a request by aborting its `requestSignal`, which cancels the outer request.
 */
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { AcpKitError, ProtocolError, type TypedConnection } from '@acp-kit/protocol';
import {
  handleMcpMessageNotifications,
  requestMcpMessage,
  type McpOutcome,
} from '@acp-kit/protocol/unstable';

type Id = string | number;
type Params = Record<string, unknown>;

/** The transports of one ACP connection by server id: `mcp/message` notifications are routed here. */
const routes = new WeakMap<TypedConnection, Map<string, Set<AcpMcpTransport>>>();

function routeNotifications(connection: TypedConnection): Map<string, Set<AcpMcpTransport>> {
  let byServer = routes.get(connection);
  if (!byServer) {
    const table = new Map<string, Set<AcpMcpTransport>>();
    byServer = table;
    routes.set(connection, table);
    handleMcpMessageNotifications(connection, (note) => {
      for (const transport of table.get(note.serverId) ?? []) {
        transport.deliverNotification(note.requestId, note.method, note.params ?? undefined);
      }
    });
  }
  return byServer;
}

/**
 * @example
 * const client = new Client(info, { versionNegotiation: { mode: { pin: MCP_OVER_ACP_PROTOCOL_VERSION } } });
 * await client.connect(new AcpMcpTransport(connection, { name: 'browser', serverId }));
 */
export class AcpMcpTransport implements Transport {
  /** One outer request per inner request: cancelling is aborting it, not a notification. */
  readonly hasPerRequestStream = true;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The first outer (binding) failure, e.g. -33001 for a server the client does not provide. */
  outerFailure?: Error;
  /** The outer `requestId`s of our running requests, each with its abort. */
  private readonly active = new Map<string, AbortController>();
  /** Outer request ids are unique per transport: two sessions may share one declared server. */
  private readonly prefix = randomUUID().slice(0, 8);
  private closed = false;

  constructor(
    private readonly connection: TypedConnection,
    private readonly server: { name: string; serverId: string },
  ) {}

  start(): Promise<void> {
    const byServer = routeNotifications(this.connection);
    const set = byServer.get(this.server.serverId) ?? new Set();
    set.add(this);
    byServer.set(this.server.serverId, set);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) return Promise.reject(new Error('MCP-over-ACP transport is closed'));
    if ('method' in message && 'id' in message) {
      void this.forward(message.id, message.method, message.params, options?.requestSignal);
    }
    // A client notification has no carrier in the binding (cancelling is aborting the request).
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    for (const abort of this.active.values()) abort.abort();
    this.active.clear();
    routes.get(this.connection)?.get(this.server.serverId)?.delete(this);
    this.onclose?.();
    return Promise.resolve();
  }

  /** @internal An `mcp/message` notification for one of our running requests. */
  deliverNotification(requestId: string, method: string, params: Params | undefined): void {
    if (!this.active.has(requestId)) return;
    this.onmessage?.({ jsonrpc: '2.0', method, ...(params ? { params } : {}) } as JSONRPCMessage);
  }

  /** One inner request over ACP, answered to the MCP client; never throws. */
  private async forward(
    id: Id,
    method: string,
    params: Params | undefined,
    requestSignal: AbortSignal | undefined,
  ): Promise<void> {
    const requestId = `${this.prefix}-${String(id)}`;
    const abort = new AbortController();
    this.active.set(requestId, abort);
    const signal = requestSignal ? AbortSignal.any([abort.signal, requestSignal]) : abort.signal;
    let outcome: McpOutcome;
    try {
      outcome = await requestMcpMessage(
        this.connection,
        { serverId: this.server.serverId, requestId, method, params },
        { signal },
      );
    } catch (error) {
      if (!signal.aborted) this.outerFailure ??= error instanceof Error ? error : new Error(String(error));
      outcome = { error: outerError(error) };
    } finally {
      this.active.delete(requestId);
    }
    if (this.closed || signal.aborted) return;
    const answer =
      'result' in outcome
        ? { jsonrpc: '2.0', id, result: isObject(outcome.result) ? outcome.result : {} }
        : { jsonrpc: '2.0', id, error: outcome.error };
    this.onmessage?.(answer as JSONRPCMessage);
  }
}

/** An outer failure (binding error, lost connection) as an MCP error for the client. */
function outerError(error: unknown): { code: number; message: string } {
  if (error instanceof ProtocolError) return { code: error.code, message: error.message };
  if (error instanceof AcpKitError) return { code: -32603, message: error.message };
  return { code: -32603, message: error instanceof Error ? error.message : String(error) };
}

function isObject(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
