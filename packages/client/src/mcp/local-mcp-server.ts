/**
 * One MCP server configured in the client (stdio, streamable HTTP or HTTP+SSE), connected here with
 * the MCP SDK 2.x client so that an agent reaches it through the ACP connection (see
 * `mcp-bridge.ts`). The SDK is loaded on first use: clients without bridged servers never pay for it.
 *
 * The connection is the SDK's default `initialize` handshake (MCP 2024-10-07 to 2025-11-25, what
 * the servers users have speak); its `auto` negotiation would start every stdio server twice
 * (a probe process first), and the bridge answers the agent in 2026-07-28 whichever it speaks.
 */
import type { Client, Transport } from '@modelcontextprotocol/client';
import type { McpServer } from '@acp-kit/protocol';
import { CLIENT_VERSION } from '../version.js';

/** Connects to `server` (stdio servers run in `cwd`) and does the MCP handshake. */
export async function connectLocalMcpServer(
  server: McpServer,
  cwd: string,
  signal: AbortSignal,
): Promise<Client> {
  const { Client } = await import('@modelcontextprotocol/client');
  const client = new Client({ name: 'acp-kit-client', version: CLIENT_VERSION });
  try {
    await client.connect(await transportFor(server, cwd), { signal });
    return client;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

async function transportFor(server: McpServer, cwd: string): Promise<Transport> {
  const type = (server as { type?: unknown }).type;
  if (type === 'http' || type === 'sse') {
    const remote = server as Extract<McpServer, { type: 'http' }>;
    const headers = Object.fromEntries(remote.headers.map((h) => [h.name, h.value]));
    if (type === 'http') {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      return new StreamableHTTPClientTransport(new URL(remote.url), { requestInit: { headers } });
    }
    const { SSEClientTransport } = await import('@modelcontextprotocol/client');
    // The headers go on the event stream too, not only on the message POSTs.
    return new SSEClientTransport(new URL(remote.url), {
      requestInit: { headers },
      eventSourceInit: {
        fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, ...headers } }),
      },
    });
  }
  if (type !== undefined)
    throw new Error(`MCP server "${server.name}" has an unknown transport "${String(type)}"`);
  const stdio = server as Extract<McpServer, { command: string }>;
  const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/client/stdio');
  return new StdioClientTransport({
    command: stdio.command,
    args: stdio.args,
    // The SDK's allowlist of inherited variables plus the configured ones: no other secret leaks.
    env: { ...getDefaultEnvironment(), ...Object.fromEntries(stdio.env.map((v) => [v.name, v.value])) },
    cwd,
    // A server's stderr must not reach a terminal UI's screen.
    stderr: 'ignore',
  });
}
