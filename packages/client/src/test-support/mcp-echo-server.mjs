#!/usr/bin/env node
// A real stdio MCP server (MCP SDK, session-style versions with `initialize`) for bridge tests:
// `echo` answers its text with the server's cwd; `fail` answers an MCP error. With MCP_PID_FILE
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
  ],
}));
server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
  if (params.name === 'fail') throw new McpError(-32001, 'the echo is broken');
  return { content: [{ type: 'text', text: `echo: ${params.arguments?.text} in ${process.cwd()}` }] };
});
if (process.env.MCP_PID_FILE) writeFileSync(process.env.MCP_PID_FILE, `${process.pid}\n`);
await server.connect(new StdioServerTransport());
