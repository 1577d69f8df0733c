/**
 * The MCP servers a client hands us in `session/new`, `session/load` or `session/resume`: connected
 * with the MCP SDK 2.x client (stdio, streamable HTTP, the older HTTP+SSE, and the unstable
 * MCP-over-ACP of `acp-transport.ts`), their tools offered to the model, stopped with the session.
 * A server that fails to start is reported to the user; the session goes on without it.
 *
 * Versions: stdio/HTTP/SSE servers get the SDK's default `initialize` handshake (MCP 2024-10-07 to
 * 2025-11-25, the versions servers speak today; its `auto` probe would spawn every stdio server
 * twice); `acp` servers get the client pinned to MCP 2026-07-28, the binding's only version.
 */
import { randomUUID } from 'node:crypto';
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type ClientOptions,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { Logger, McpServer, TypedConnection } from '@acp-kit/protocol';
import { MCP_OVER_ACP_PROTOCOL_VERSION, isAcpMcpServer } from '@acp-kit/protocol/unstable';
import type { McpConnector, McpSessionHandle } from '../agent.js';
import type { Session } from '../session/session.js';
import type { AgentTool } from '../tools/types.js';
import { clip } from '../util/text.js';
import { AGENT_VERSION } from '../version.js';
import { AcpMcpTransport } from './acp-transport.js';
import { mcpTool, type McpToolInfo } from './mcp-tools.js';

/** How long a server may take to start and list its tools. */
const DEFAULT_START_TIMEOUT_MS = 30_000;

/** MCP-over-ACP is MCP 2026-07-28 only: the client discovers the server and sends the envelope. */
const OVER_ACP: ClientOptions = {
  versionNegotiation: { mode: { pin: MCP_OVER_ACP_PROTOCOL_VERSION } },
};

interface Connected {
  name: string;
  client: Client;
  tools: AgentTool[];
}

interface Failed {
  name: string;
  reason: string;
}

function transportFor(server: McpServer, cwd: string, logger: Logger): Transport {
  if ('type' in server && server.type === 'http') {
    const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
    return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
  }
  if ('type' in server && server.type === 'sse') {
    const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
    // The headers go on the event stream and on every message POST.
    return new SSEClientTransport(new URL(server.url), {
      requestInit: { headers },
      eventSourceInit: {
        fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, ...headers } }),
      },
    });
  }
  if ('type' in server && server.type !== undefined) {
    throw new Error(
      `MCP server transport "${String(server.type)}" is not supported (stdio, http, sse and acp are)`,
    );
  }
  const stdio = server as Extract<McpServer, { command: string }>;
  if (typeof stdio.command !== 'string' || stdio.command === '') {
    throw new Error('MCP server has neither a transport type nor a command');
  }
  const transport = new StdioClientTransport({
    command: stdio.command,
    args: stdio.args,
    // The MCP SDK's allowlist of inherited variables, plus what the client asked for: no secrets of ours leak.
    env: { ...getDefaultEnvironment(), ...Object.fromEntries(stdio.env.map((v) => [v.name, v.value])) },
    cwd,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    logger.log('debug', 'mcp server stderr', {
      server: stdio.name,
      text: clip(chunk.toString('utf8').trim(), 500),
    });
  });
  return transport;
}

async function listAllTools(client: Client, signal: AbortSignal): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { signal });
    tools.push(...(page.tools as McpToolInfo[]));
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

class SessionServers implements McpSessionHandle {
  readonly ready: Promise<void>;
  private connected: Connected[] = [];
  private failed: Failed[] = [];
  private readonly stopping = new AbortController();

  constructor(
    private readonly session: Session,
    servers: readonly McpServer[],
    private readonly logger: Logger,
    private readonly startTimeoutMs: number,
  ) {
    this.ready = Promise.all(servers.map((server) => this.connect(server))).then(() => undefined);
  }

  private async connect(server: McpServer): Promise<void> {
    const acp = isAcpMcpServer(server);
    const client = new Client({ name: 'acp-kit-agent', version: AGENT_VERSION }, acp ? OVER_ACP : {});
    const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(this.startTimeoutMs)]);
    let overAcp: AcpMcpTransport | undefined;
    try {
      const transport = acp
        ? (overAcp = new AcpMcpTransport(acpConnection(this.session), server))
        : transportFor(server, this.session.workspace.cwd, this.logger);
      await client.connect(transport, {
        signal,
        timeout: this.startTimeoutMs,
      });
      const tools = (await listAllTools(client, signal)).map((info) => mcpTool(server.name, client, info));
      if (this.stopping.signal.aborted) {
        await client.close();
        return;
      }
      this.connected.push({ name: server.name, client, tools });
      this.logger.log('info', 'mcp server connected', { server: server.name, tools: tools.length });
    } catch (error) {
      await client.close().catch(() => undefined);
      // The SDK reports a failed `server/discover` as a failed negotiation; the binding's error says why.
      const reason =
        signal.aborted && !this.stopping.signal.aborted
          ? 'it did not start in time'
          : describe(overAcp?.outerFailure ?? error);
      this.failed.push({ name: server.name, reason });
      this.logger.log('warn', 'mcp server failed to start', { server: server.name, reason });
    }
  }

  tools(): AgentTool[] {
    return this.connected.flatMap((server) => server.tools);
  }

  async report(): Promise<void> {
    for (const failure of this.failed) {
      const title = `MCP server "${failure.name}" failed to start`;
      const shown = await this.session.emit({
        type: 'notice',
        severity: 'error',
        title,
        description: failure.reason,
      });
      if (!shown) {
        await this.session.emit({
          type: 'message_chunk',
          role: 'agent',
          messageId: randomUUID(),
          content: { type: 'text', text: `⚠️ ${title}: ${failure.reason}. Continuing without its tools.\n` },
        });
      }
    }
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.ready;
    const servers = this.connected;
    this.connected = [];
    await Promise.all(servers.map((server) => server.client.close().catch(() => undefined)));
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return clip(message.replace(/\s+/g, ' '), 300);
}

/**
 * @example
 * serveAgent(channel, { engine, dataDir, mcp: new McpServers(logger) });
 */
export class McpServers implements McpConnector {
  constructor(
    private readonly logger: Logger,
    private readonly startTimeoutMs = DEFAULT_START_TIMEOUT_MS,
  ) {}

  start(session: Session, servers: readonly McpServer[]): McpSessionHandle {
    return new SessionServers(session, servers, this.logger, this.startTimeoutMs);
  }
}

/** The connection an `acp` server's messages travel over; an error when this face has none. */
function acpConnection(session: Session): TypedConnection {
  const connection = session.client.mcpConnection;
  if (!connection)
    throw new Error(
      'MCP-over-ACP (type "acp") is not offered in this protocol version; stdio, http and sse are',
    );
  return connection;
}
