#!/usr/bin/env node
// A real stdio MCP server (MCP SDK, session-style versions with `initialize`) for bridge tests:
// `echo` answers its text with the server's cwd; `fail` answers an MCP error; `wait` reports progress
// once and runs until it is cancelled; `cancelled` answers how many `wait`s were; `crash` exits. With MCP_PID_FILE
// set, the server writes its pid there first (tests check it is stopped).
import { writeFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const server = new Server(
  { name: 'echo-server', version: '2.0.0' },
  { capabilities: { tools: {} }, instructions: 'Echoes.' },
);
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    { name: 'fail', inputSchema: { type: 'object' } },
    { name: 'wait', inputSchema: { type: 'object' } },
    { name: 'cancelled', inputSchema: { type: 'object' } },
    { name: 'crash', inputSchema: { type: 'object' } },
  ],
}));
let cancelled = 0;
server.setRequestHandler(CallToolRequestSchema, async ({ params }, extra) => {
  if (params.name === 'fail') throw new McpError(-32001, 'the echo is broken');
  if (params.name === 'crash') process.exit(3);
  if (params.name === 'cancelled') return { content: [{ type: 'text', text: String(cancelled) }] };
  if (params.name === 'wait') {
    const progressToken = params._meta?.progressToken;
    if (progressToken !== undefined)
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: 0 },
      });
    await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
    cancelled += 1;
    return { content: [] };
  }
  return { content: [{ type: 'text', text: `echo: ${params.arguments?.text} in ${process.cwd()}` }] };
});
if (process.env.MCP_PID_FILE) writeFileSync(process.env.MCP_PID_FILE, `${process.pid}\n`);
await server.connect(new StdioServerTransport());
