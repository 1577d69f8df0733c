/**
 * A real MCP server for tests: `echo` (read-only), `write_note` (writes a file in its cwd) and
 * `wait` (runs until cancelled). Served over stdio (`node --import tsx mcp-test-server.ts`) or, via
 * {@link startHttpMcpServer} and {@link startSseMcpServer}, over streamable HTTP or HTTP+SSE on
 * 127.0.0.1.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** `write_note` writes into `dir` (the stdio server: its cwd, which the agent sets to the session's). */
export function buildTestMcpServer(label: string, dir: string): McpServer {
  const server = new McpServer({ name: `test-${label}`, version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echo the text back',
      inputSchema: { text: z.string() },
      annotations: { title: 'Echo', readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text: `${label} echo: ${text}` }] }),
  );
  server.registerTool(
    'write_note',
    {
      description: 'Write a note file in the working directory',
      inputSchema: { name: z.string(), text: z.string() },
    },
    async ({ name, text }) => {
      writeFileSync(join(dir, name), text);
      return { content: [{ type: 'text', text: `wrote ${name}` }] };
    },
  );
  server.registerTool('wait', { description: 'Wait until cancelled' }, async (extra) => {
    await new Promise<void>((resolve) =>
      extra.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    return { content: [{ type: 'text', text: 'stopped' }], isError: true };
  });
  return server;
}

/** The path of this file, to spawn it as a stdio server. */
export const MCP_TEST_SERVER = fileURLToPath(import.meta.url);

export interface HttpMcpServer {
  url: string;
  /** Headers of every request received. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** The test server over streamable HTTP (stateless: one transport per request); notes go to `dir`. */
export async function startHttpMcpServer(dir: string): Promise<HttpMcpServer> {
  const headers: IncomingHttpHeaders[] = [];
  const http = createServer((req, res) => {
    headers.push(req.headers);
    const server = buildTestMcpServer('http', dir);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    headers,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/**
 * The test server over the older HTTP+SSE transport: `GET /sse` opens the event stream, the
 * client POSTs to the endpoint it announces. Labelled `sse`; notes go to `dir`.
 */
export async function startSseMcpServer(dir: string): Promise<HttpMcpServer> {
  const headers: IncomingHttpHeaders[] = [];
  const transports = new Map<string, SSEServerTransport>();
  const http = createServer((req, res) => {
    headers.push(req.headers);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      res.on('close', () => transports.delete(transport.sessionId));
      void buildTestMcpServer('sse', dir).connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && url.pathname === '/messages' && transport) {
      void transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    headers,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

// Run as a stdio server when executed directly.
if (process.argv[1] === MCP_TEST_SERVER) {
  if (process.env.MCP_PID_FILE) writeFileSync(process.env.MCP_PID_FILE, `${process.pid}\n`);
  await buildTestMcpServer(process.env.MCP_LABEL ?? 'stdio', process.cwd()).connect(
    new StdioServerTransport(),
  );
}
