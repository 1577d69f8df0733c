/**
 * The client's MCP servers offered to the agent over the ACP connection (unstable MCP-over-ACP).
 * When the agent takes them (`features.mcp.acp`: v1's `mcpCapabilities.acp`, v2's
 * `capabilities.session.mcp.acp`), over either version's connection, every configured stdio/HTTP/SSE server is
 * declared as `{ type: "acp", name, serverId }` and served here: the agent's `mcp/message` requests
 * are routed by `serverId` to a local MCP client, so an agent on another machine (`acp serve`) uses
 * servers that exist only on the user's. Otherwise the servers go to the agent as configured.
 *
 * Versions: the binding is MCP 2026-07-28 (stateless, metadata on every request), answered by the
 * MCP SDK 2.x server (`modern-endpoint.ts`); the local servers speak the session-style versions
 * they speak today, through the SDK 2.x client's `initialize` handshake (`local-mcp-server.ts`).
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, type Logger, type McpServer, type TypedConnection } from '@acp-kit/protocol';
import {
  MCP_REQUEST_META,
  McpBindingErrorCode,
  handleMcpMessageRequests,
  isAcpMcpServer,
  notifyMcpMessage,
  type McpOutcome,
} from '@acp-kit/protocol/unstable';
import type { MessageMcpRequest } from '@acp-kit/protocol/unstable';
import { connectLocalMcpServer } from './local-mcp-server.js';

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
    // The binding answers a request without the version -32602; the MCP SDK would take it for a
    // 2025-era request (-32022). Everything else about the envelope is the SDK's to check.
    const meta = (params.params as Params | undefined)?._meta as Params | undefined;
    if (typeof meta?.[MCP_REQUEST_META.protocolVersion] !== 'string') {
      return {
        error: { code: -32602, message: 'MCP 2026-07-28 request metadata is missing in params._meta' },
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
    const { serveModernRequest } = await import('./modern-endpoint.js');
    return serveModernRequest(client, bridged.server.name, params, signal, (method, inner) =>
      notifyMcpMessage(this.connection, {
        serverId: params.serverId,
        requestId: params.requestId,
        method,
        ...(inner ? { params: inner } : {}),
      }).catch(() => undefined),
    );
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
}
