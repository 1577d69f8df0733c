/**
 * The client's MCP servers offered to the agent over the ACP connection (unstable MCP-over-ACP).
 * When the agent takes them (`features.mcp.acp`: v1's `mcpCapabilities.acp`, v2's
 * `capabilities.session.mcp.acp`), over either version's connection, every configured stdio/HTTP/SSE server is
 * declared as `{ type: "acp", name, serverId }` and served here: the agent's `mcp/message` requests
 * are routed by `serverId` to a local MCP client, so an agent on another machine (`acp serve`) uses
 * servers that exist only on the user's. Otherwise the servers go to the agent as configured.
 *
 * Version bridging: the binding is MCP 2026-07-28 (stateless, metadata on every request); the
 * local servers speak the session-style versions, so the bridge does their `initialize` itself,
 * answers `server/discover` from it, and strips the per-request metadata before forwarding.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ProtocolError, type Logger, type McpServer, type TypedConnection } from '@acp-kit/protocol';
import {
  MCP_OVER_ACP_PROTOCOL_VERSION,
  MCP_REQUEST_META,
  McpBindingErrorCode,
  handleMcpMessageRequests,
  isAcpMcpServer,
  notifyMcpMessage,
  type McpOutcome,
} from '@acp-kit/protocol/unstable';
import type { MessageMcpRequest } from '@acp-kit/protocol/unstable';
import { connectLocalMcpServer } from './local-mcp-server.js';

/** Longest a bridged request may run without progress (the agent cancels earlier if it wants). */
const REQUEST_TIMEOUT_MS = 10 * 60 * 1000;
/** Longest a local server may take to start. */
const START_TIMEOUT_MS = 30_000;

interface Bridged {
  server: McpServer;
  cwd: string;
  client?: Promise<Client>;
}

type Params = Record<string, unknown>;

/**
 * @example
 * const bridge = new McpBridge(connection, logger); // v1 or v2, created with { unstable: true }
 * const mcpServers = bridge.offer(configured, cwd, port.features.mcp.acp);
 */
export class McpBridge {
  private readonly servers = new Map<string, Bridged>();
  /** The serverIds each agent session was opened with: stopped when it ends. */
  private readonly owned = new Map<string, Set<string>>();
  private closed = false;

  constructor(
    private readonly connection: TypedConnection,
    private readonly logger?: Logger,
  ) {
    handleMcpMessageRequests(connection, (params, ctx) => this.handle(params, ctx.signal));
  }

  /**
   * What to put in `mcpServers` for a session in `cwd`: `acp` declarations when the agent takes
   * them (`acceptsAcp`), each with a serverId of its own (servers belong to one session: see `claim`).
   */
  offer(servers: readonly McpServer[], cwd: string, acceptsAcp: boolean): McpServer[] {
    if (!acceptsAcp || this.closed) return [...servers];
    return servers.map((server) => {
      if (isAcpMcpServer(server)) return server;
      const serverId = `${server.name}-${randomUUID()}`;
      this.servers.set(serverId, { server, cwd });
      // The stable schema has no `acp` variant: this entry is only valid on the unstable one.
      return { type: 'acp', name: server.name, serverId } as unknown as McpServer;
    });
  }

  /** The servers `offer` declared in `offered` now belong to `agentSessionId`: `release` stops them. */
  claim(agentSessionId: string, offered: readonly McpServer[]): void {
    const ids = this.ownIds(offered);
    if (ids.length === 0) return;
    const owned = this.owned.get(agentSessionId) ?? new Set<string>();
    for (const id of ids) owned.add(id);
    this.owned.set(agentSessionId, owned);
  }

  /** Forgets servers offered for a session that was not opened (and stops any the agent started). */
  async drop(offered: readonly McpServer[]): Promise<void> {
    await this.stop(this.ownIds(offered));
  }

  /** Stops the servers of a session that ended (closed, detached, or its agent gone). */
  async release(agentSessionId: string): Promise<void> {
    const owned = this.owned.get(agentSessionId);
    this.owned.delete(agentSessionId);
    if (owned) await this.stop([...owned]);
  }

  /** Stops every local server started for the agent. */
  async close(): Promise<void> {
    this.closed = true;
    this.owned.clear();
    await this.stop([...this.servers.keys()]);
  }

  private ownIds(declared: readonly McpServer[]): string[] {
    return declared.flatMap((server) => {
      const serverId = isAcpMcpServer(server) ? server.serverId : undefined;
      return serverId !== undefined && this.servers.has(serverId) ? [serverId] : [];
    });
  }

  /** Stops the servers (stdio: stdin closed, then SIGTERM, SIGKILL, by the MCP SDK) and forgets them. */
  private async stop(serverIds: readonly string[]): Promise<void> {
    const started: Promise<Client>[] = [];
    for (const id of serverIds) {
      const client = this.servers.get(id)?.client;
      if (client) started.push(client);
      this.servers.delete(id);
    }
    await Promise.all(started.map((c) => c.then((client) => client.close()).catch(() => undefined)));
  }

  private async handle(params: MessageMcpRequest, signal: AbortSignal): Promise<McpOutcome> {
    const bridged = this.servers.get(params.serverId);
    if (!bridged) {
      throw new ProtocolError(McpBindingErrorCode.serverUnavailable, 'Unknown MCP server', {
        serverId: params.serverId,
      });
    }
    const inner = (params.params ?? {}) as Params;
    const meta = (inner._meta ?? {}) as Params;
    const version = meta[MCP_REQUEST_META.protocolVersion];
    if (typeof version !== 'string' || typeof meta[MCP_REQUEST_META.clientCapabilities] !== 'object') {
      return {
        error: { code: -32602, message: 'MCP 2026-07-28 request metadata is missing in params._meta' },
      };
    }
    if (version !== MCP_OVER_ACP_PROTOCOL_VERSION) {
      return {
        error: {
          code: -32022,
          message: 'Unsupported protocol version',
          data: { supported: [MCP_OVER_ACP_PROTOCOL_VERSION], requested: version },
        },
      };
    }
    const client = await this.client(bridged);
    if (this.servers.get(params.serverId) !== bridged) {
      // Its session ended while it started: stop it now, nobody else will.
      await client.close().catch(() => undefined);
      throw new ProtocolError(McpBindingErrorCode.serverUnavailable, 'MCP server stopped', {
        serverId: params.serverId,
      });
    }
    if (params.method === 'server/discover') return { result: discovery(client, bridged.server) };
    const forwarded = withoutBindingMeta(inner);
    const token = (forwarded._meta as Params | undefined)?.progressToken;
    try {
      const result = await client.request(
        { method: params.method, params: forwarded },
        (await import('@modelcontextprotocol/sdk/types.js')).ResultSchema,
        {
          signal,
          timeout: REQUEST_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          ...(token !== undefined
            ? {
                onprogress: (progress) =>
                  void notifyMcpMessage(this.connection, {
                    serverId: params.serverId,
                    requestId: params.requestId,
                    method: 'notifications/progress',
                    params: { ...progress, progressToken: token as string | number },
                  }).catch(() => undefined),
              }
            : {}),
        },
      );
      return { result };
    } catch (error) {
      return this.failure(error, signal);
    }
  }

  /** The local server's client, connected on first use (a failed start is retried next time). */
  private async client(bridged: Bridged): Promise<Client> {
    bridged.client ??= connectLocalMcpServer(
      bridged.server,
      bridged.cwd,
      AbortSignal.timeout(START_TIMEOUT_MS),
    );
    try {
      return await bridged.client;
    } catch (error) {
      bridged.client = undefined;
      const reason = error instanceof Error ? error.message : String(error);
      this.logger?.log('warn', 'bridged MCP server failed to start', { server: bridged.server.name, reason });
      throw new ProtocolError(
        McpBindingErrorCode.backendFailed,
        `MCP server "${bridged.server.name}" failed to start: ${reason}`,
      );
    }
  }

  private async failure(error: unknown, signal: AbortSignal): Promise<McpOutcome> {
    const { McpError } = await import('@modelcontextprotocol/sdk/types.js');
    if (signal.aborted)
      throw new ProtocolError(McpBindingErrorCode.requestCancelled, 'MCP request cancelled');
    // The server's own error answer is an inner error; anything else is the bridge's failure.
    if (error instanceof McpError) {
      const message = error.message.replace(/^MCP error -?\d+: /, '');
      return {
        error: { code: error.code, message, ...(error.data !== undefined ? { data: error.data } : {}) },
      };
    }
    throw new ProtocolError(
      McpBindingErrorCode.backendFailed,
      error instanceof Error ? error.message : String(error),
    );
  }
}

/** `server/discover` answered from the session-style handshake the bridge did with the server. */
function discovery(client: Client, server: McpServer): Params {
  const instructions = client.getInstructions();
  return {
    supportedVersions: [MCP_OVER_ACP_PROTOCOL_VERSION],
    capabilities: client.getServerCapabilities() ?? {},
    serverInfo: client.getServerVersion() ?? { name: server.name, version: '' },
    ...(instructions ? { instructions } : {}),
  };
}

/** The inner params as a session-style server expects them: without the binding's `_meta` keys. */
function withoutBindingMeta(params: Params): Params {
  const meta = { ...((params._meta ?? {}) as Params) };
  for (const key of Object.values(MCP_REQUEST_META)) delete meta[key];
  const { _meta: _ignored, ...rest } = params;
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}
