/**
 * An MCP client transport whose messages travel over the ACP connection as `mcp/message` (unstable
 * MCP-over-ACP), for servers the client declared as `{ type: "acp", name, serverId }`. The MCP SDK's
 * `Client` runs on it as on stdio or HTTP, so tools are listed, called and cancelled the same way.
 *
 * The binding speaks MCP 2026-07-28 only: stateless, no `initialize`. This transport bridges the
 * SDK's session-style client to it: `initialize` is answered here from the server's
 * `server/discover` (when it has one), `notifications/initialized` is dropped, every other request
 * carries the per-request `_meta` the version requires, and `notifications/cancelled` cancels the
 * outer request.
 */
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AcpKitError, ProtocolError, type TypedConnection } from '@acp-kit/protocol';
import {
  MCP_OVER_ACP_PROTOCOL_VERSION,
  MCP_REQUEST_META,
  handleMcpMessageNotifications,
  requestMcpMessage,
  type McpOutcome,
} from '@acp-kit/protocol/unstable';
import { AGENT_VERSION } from '../version.js';

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

/** Who we are to the server, in every inner request (the binding has no `initialize`). */
const CLIENT_INFO = { name: 'acp-kit-agent', version: AGENT_VERSION };

/**
 * @example
 * const client = new Client({ name: 'acp-kit-agent', version });
 * await client.connect(new AcpMcpTransport(connection, { name: 'browser', serverId }));
 */
export class AcpMcpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Inner request id (as the MCP client numbered it) by the outer `requestId` we sent. */
  private readonly active = new Map<string, { id: Id; abort: AbortController }>();
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

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('MCP-over-ACP transport is closed'));
    if ('method' in message && 'id' in message) {
      void this.forward(message.id, message.method, message.params as Params | undefined);
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: Id } | undefined)?.requestId;
      for (const entry of this.active.values()) if (entry.id === requestId) entry.abort.abort();
    }
    // Other notifications (`initialized`, ...) have no carrier in the stateless binding.
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    for (const entry of this.active.values()) entry.abort.abort();
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

  private async forward(id: Id, method: string, params: Params | undefined): Promise<void> {
    if (method === 'initialize') {
      this.answer(id, await this.initializeResult(params));
      return;
    }
    this.answer(id, await this.request(id, method, params));
  }

  /** One inner request over ACP, answered as the MCP client expects; never throws. */
  private async request(id: Id, method: string, params: Params | undefined): Promise<McpOutcome> {
    const requestId = `${this.prefix}-${String(id)}`;
    const abort = new AbortController();
    this.active.set(requestId, { id, abort });
    try {
      return await requestMcpMessage(
        this.connection,
        { serverId: this.server.serverId, requestId, method, params: withRequestMeta(params) },
        { signal: abort.signal },
      );
    } catch (error) {
      return { error: outerError(error) };
    } finally {
      this.active.delete(requestId);
    }
  }

  /** The session-style handshake, answered from `server/discover` (optional in 2026-07-28). */
  private async initializeResult(params: Params | undefined): Promise<McpOutcome> {
    const discovered = await this.request('discover', 'server/discover', undefined);
    const found = 'result' in discovered && isObject(discovered.result) ? discovered.result : {};
    return {
      result: {
        // The SDK client checks that the server agreed to the version it asked for.
        protocolVersion: params?.protocolVersion,
        capabilities: isObject(found.capabilities) ? found.capabilities : { tools: {} },
        serverInfo: isObject(found.serverInfo) ? found.serverInfo : { name: this.server.name, version: '' },
        ...(typeof found.instructions === 'string' ? { instructions: found.instructions } : {}),
      },
    };
  }

  private answer(id: Id, outcome: McpOutcome): void {
    if (this.closed) return;
    const message =
      'result' in outcome
        ? { jsonrpc: '2.0', id, result: isObject(outcome.result) ? outcome.result : {} }
        : { jsonrpc: '2.0', id, error: outcome.error };
    this.onmessage?.(message as JSONRPCMessage);
  }
}

/** Adds what every 2026-07-28 request carries, keeping what the MCP client set (`progressToken`). */
function withRequestMeta(params: Params | undefined): Params {
  const meta = isObject(params?._meta) ? params._meta : {};
  return {
    ...params,
    _meta: {
      [MCP_REQUEST_META.protocolVersion]: MCP_OVER_ACP_PROTOCOL_VERSION,
      [MCP_REQUEST_META.clientCapabilities]: {},
      [MCP_REQUEST_META.clientInfo]: CLIENT_INFO,
      ...meta,
    },
  };
}

/** An outer failure (binding error, cancellation, lost connection) as an MCP error for the client. */
function outerError(error: unknown): { code: number; message: string } {
  if (error instanceof ProtocolError) return { code: error.code, message: error.message };
  if (error instanceof AcpKitError) return { code: -32603, message: error.message };
  return { code: -32603, message: error instanceof Error ? error.message : String(error) };
}

function isObject(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
