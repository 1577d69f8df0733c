/**
 * One MCP server configured in the client (stdio, streamable HTTP or HTTP+SSE), connected here with
 * the MCP SDK so that an agent reaches it through the ACP connection (see `mcp-bridge.ts`). The SDK
 * is loaded on first use: clients without bridged servers never pay for it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServer } from '@acp-kit/protocol';
import { CLIENT_VERSION } from '../version.js';

/** Connects to `server` (stdio servers run in `cwd`) and does the MCP handshake. */
export async function connectLocalMcpServer(
  server: McpServer,
  cwd: string,
  signal: AbortSignal,
): Promise<Client> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
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
      const { StreamableHTTPClientTransport } =
        await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      return new StreamableHTTPClientTransport(new URL(remote.url), { requestInit: { headers } });
    }
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
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
  const { StdioClientTransport, getDefaultEnvironment } =
    await import('@modelcontextprotocol/sdk/client/stdio.js');
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
