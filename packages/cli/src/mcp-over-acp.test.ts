/**
 * A local MCP server reached by a remote agent: the client engine connects to `acp serve --agent
 * acp-kit` over 127.0.0.1, its configured stdio MCP server (a real MCP SDK server, started on this
 * side only) is offered to `acp agent` as a `type: "acp"` server, and the model's call of one of its
 * tools travels agent → serve → client → MCP server and back as `mcp/message`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentConnection, PermissionPolicy } from '@acp-kit/client';
import type { McpServer } from '@acp-kit/protocol';
import { MCP_TEST_SERVER } from '../../agent/src/test-support/mcp-test-server.js';
import { testHome, type TestHome } from './test-support/cli-harness.js';
import { startOpenAIStub, type OpenAIStub } from './test-support/openai-stub.js';
import { startServe, type Served } from './test-support/serve-harness.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

let home: TestHome | undefined;
let stub: OpenAIStub | undefined;
let served: Served | undefined;
let connection: AgentConnection | undefined;

afterEach(async () => {
  await connection?.close(500);
  await served?.stop();
  await stub?.close();
  await home?.cleanup();
  connection = served = stub = home = undefined;
});

// v2 (what the client asks for first) over both transports, and v1.
describe.each([
  ['websocket', 2],
  ['http', 2],
  ['websocket', 1],
] as const)('MCP-over-ACP through acp serve (%s, ACP v%i)', (transport, protocolVersion) => {
  it('calls a tool of an MCP server configured only on the client', async () => {
    home = await testHome();
    stub = await startOpenAIStub([
      { tool: 'mcp__local__echo', args: { text: 'from far away' } },
      { tool: 'mcp__local__write_note', args: { name: 'note.txt', text: 'written on the client machine' } },
      { text: 'Done.' },
    ]);
    served = await startServe(home, ['--agent', 'acp-kit'], {
      ACP_KIT_BASE_URL: stub.baseUrl,
      ACP_KIT_MODEL: 'stub-model',
      ACP_KIT_API_KEY: 'test-key-not-secret',
    });
    const url = served.url;
    connection = await AgentConnection.start({
      agent: { id: 'remote', name: 'remote agent', source: 'user', command: url, args: [], url, transport },
      policy: new PermissionPolicy({ mode: 'all' }),
      protocolVersion,
    });
    expect(connection.protocolVersion).toBe(protocolVersion);
    expect(connection.features.mcp.acp).toBe(true);
    const local: McpServer = {
      name: 'local',
      command: process.execPath,
      args: ['--conditions=@acp-kit/source', '--import', TSX, MCP_TEST_SERVER],
      env: [{ name: 'MCP_LABEL', value: 'client' }],
    };
    const session = await connection.newSession({ cwd: home.work, mcpServers: [local] });
    const { stopReason } = await session.prompt('use the local tools');
    expect(stopReason).toBe('end_turn');

    const tools = session.state.items.filter((item) => item.kind === 'tool_call');
    expect(tools.map((t) => [t.title, t.status])).toEqual([
      ['local: Echo', 'completed'],
      ['local: write_note', 'completed'],
    ]);
    expect(JSON.stringify(tools[0])).toContain('client echo: from far away');
    // The stdio server ran here, in the session's directory on the client side.
    expect(await readFile(join(home.work, 'note.txt'), 'utf8')).toBe('written on the client machine');
    // The model was offered the tools and saw the result.
    const second = JSON.stringify(stub.requests[1]?.messages);
    expect(second).toContain('client echo: from far away');
  });
});
