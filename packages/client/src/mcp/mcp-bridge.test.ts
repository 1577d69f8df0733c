/**
 * The client engine's MCP bridge against an agent built on the official ACP SDK's
 * `McpOverAcpCaller`, both real processes: a configured stdio MCP server (session-style MCP) is
 * declared as `type: "acp"` and reached through `mcp/message` with MCP 2026-07-28 metadata; inner
 * errors stay inner, an unknown server is an outer error, and an agent without
 * `mcpCapabilities.acp` gets the server as configured.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServer } from '@acp-kit/protocol';
import { AgentConnection } from '../agent/agent-connection.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { agentText, tempDir } from '../test-support/harness.js';

const AGENT = fileURLToPath(new URL('../test-support/sdk-mcp-agent.mjs', import.meta.url));
const SERVER = fileURLToPath(new URL('../test-support/mcp-echo-server.mjs', import.meta.url));
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Whether a process exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
/** What a 2026-07-28 server adds to each result: its kind and, in `_meta`, who answered. */
const MODERN = {
  resultType: 'complete',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'echo-server', version: '2.0.0' } },
};
const echo: McpServer = { name: 'echo', command: process.execPath, args: [SERVER], env: [] };

async function connect(args: string[]): Promise<AgentConnection> {
  const connection = await AgentConnection.start({
    agent: {
      id: 'sdk-mcp',
      name: 'SDK MCP agent',
      source: 'user',
      command: process.execPath,
      args: [AGENT, ...args],
    },
    policy: new PermissionPolicy({ mode: 'all' }),
  });
  cleanups.push(() => connection.close(200));
  return connection;
}

describe('MCP bridge', () => {
  it('serves a configured stdio MCP server to an SDK agent over mcp/message', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const connection = await connect([]);
    const session = await connection.newSession({ cwd: dir, mcpServers: [echo] });
    const calls = [
      { server: 'echo', method: 'server/discover' },
      { server: 'echo', method: 'tools/list' },
      { server: 'echo', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
      { server: 'echo', method: 'tools/call', params: { name: 'fail', arguments: {} } },
      { server: 'not-declared', method: 'tools/list' },
      { server: 'echo', method: 'tools/list', params: { _meta: { [VERSION]: '2025-06-18' } } },
      { server: 'echo', method: 'tools/list', params: { _meta: { [VERSION]: null } } },
      { server: 'echo', method: 'tools/list', params: { _meta: { [VERSION]: '2026-07-28', [CAPS]: 1 } } },
      // Last: the server exits without answering.
      { server: 'echo', method: 'tools/call', params: { name: 'crash', arguments: {} } },
    ];
    await session.prompt(JSON.stringify(calls));
    const { servers, outcomes } = JSON.parse(agentText(session.state)) as {
      servers: { type?: string; name: string; serverId?: string }[];
      outcomes: Record<string, unknown>[];
    };
    expect(servers).toEqual([{ type: 'acp', name: 'echo', serverId: expect.any(String) }]);
    expect(outcomes[0]).toMatchObject({
      result: {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        instructions: 'Echoes.',
        ...MODERN,
      },
    });
    expect(outcomes[1]).toMatchObject({
      result: {
        tools: [
          { name: 'echo' },
          { name: 'fail' },
          { name: 'wait' },
          { name: 'cancelled' },
          { name: 'crash' },
        ],
        ...MODERN,
      },
    });
    // The stdio server runs on the client side, in the session's directory.
    expect(outcomes[2]).toEqual({
      result: { content: [{ type: 'text', text: `echo: hi in ${dir}` }], ...MODERN },
    });
    // As the server sent it (the MCP SDK's server prefixes its errors' messages so).
    expect(outcomes[3]).toEqual({ error: { code: -32001, message: 'MCP error -32001: the echo is broken' } });
    expect(outcomes[4]).toEqual({ outer: { code: -33001, message: 'Unknown MCP server' } });
    // The envelope checks of MCP 2026-07-28, by the MCP SDK's server: another version, a malformed one.
    expect(outcomes[5]).toMatchObject({
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2025-06-18' } },
    });
    // No version at all is the binding's own -32602 (the SDK would take it for a 2025-era request).
    expect(outcomes[6]).toMatchObject({ error: { code: -32602 } });
    expect(outcomes[7]).toMatchObject({ error: { code: -32602, message: expect.stringContaining(CAPS) } });
    // A server gone without an answer is the binding's failure (-33002), not an inner error.
    expect(outcomes[8]).toMatchObject({ outer: { code: -33002 } });
  });

  it('a bridged server belongs to its session: closing the session stops it, the connection lives on', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const connection = await connect([]);
    const withPidFile = (name: string): McpServer => ({
      ...echo,
      env: [{ name: 'MCP_PID_FILE', value: join(dir, `${name}.pid`) }],
    });
    const call = (text: string) =>
      JSON.stringify([
        { server: 'echo', method: 'tools/call', params: { name: 'echo', arguments: { text } } },
      ]);
    const opened = async (name: string) => {
      const session = await connection.newSession({ cwd: dir, mcpServers: [withPidFile(name)] });
      await session.prompt(call(name));
      const reply = JSON.parse(agentText(session.state)) as {
        servers: { serverId?: string }[];
        outcomes: unknown[];
      };
      expect(reply.outcomes[0]).toEqual({
        result: { content: [{ type: 'text', text: `echo: ${name} in ${dir}` }], ...MODERN },
      });
      const pid = Number(await readFile(join(dir, `${name}.pid`), 'utf8'));
      return { session, pid, serverId: reply.servers[0]?.serverId };
    };
    const first = await opened('first');
    const second = await opened('second');
    // Same configuration and directory, yet a server of its own for each session.
    expect(second.serverId).not.toBe(first.serverId);
    expect(second.pid).not.toBe(first.pid);

    await first.session.close();
    expect(alive(first.pid)).toBe(false);
    expect(alive(second.pid)).toBe(true);
    // The connection and the other session's server go on.
    expect(connection.running).toBe(true);
    await second.session.prompt(call('still here'));
    expect(agentText(second.session.state)).toContain('echo: still here');
    await second.session.close();
    expect(alive(second.pid)).toBe(false);
  });

  it('forwards progress of a real MCP server from npm (the MCP SDK example) to the agent', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const sdkServer = fileURLToPath(import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js'));
    const example = join(dirname(sdkServer), '..', 'examples', 'server', 'progressExample.js');
    const progress: McpServer = { name: 'counter', command: process.execPath, args: [example], env: [] };
    const connection = await connect([]);
    const session = await connection.newSession({ cwd: dir, mcpServers: [progress] });
    const call = { name: 'count', arguments: { n: 3 }, _meta: { progressToken: 'p1' } };
    await session.prompt(JSON.stringify([{ server: 'counter', method: 'tools/call', params: call }]));
    const { outcomes } = JSON.parse(agentText(session.state)) as { outcomes: Record<string, unknown>[] };
    expect(outcomes[0]).toMatchObject({ result: { content: [{ type: 'text', text: 'Counted to 3' }] } });
    // The agent's own progress token, not the one the bridge's MCP client used with the server.
    expect(outcomes[0]?.notes).toEqual(
      [1, 2, 3].map((i) => ({
        method: 'notifications/progress',
        params: { progressToken: 'p1', progress: i, total: 3, message: `Counting: ${i}/3` },
      })),
    );
  });

  it('cancels the local request when the agent cancels its mcp/message', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const connection = await connect([]);
    const session = await connection.newSession({ cwd: dir, mcpServers: [echo] });
    const tool = (name: string) => ({ name, arguments: {}, _meta: { progressToken: 'p' } });
    const calls = [
      // `wait` runs until cancelled: the agent cancels when its first progress arrives.
      { server: 'echo', method: 'tools/call', params: tool('wait'), cancelOnNote: true },
      { server: 'echo', method: 'tools/call', params: tool('cancelled') },
    ];
    await session.prompt(JSON.stringify(calls));
    const { outcomes } = JSON.parse(agentText(session.state)) as { outcomes: Record<string, unknown>[] };
    expect(outcomes[0]).toEqual({ outer: { code: -32800, message: expect.any(String) } });
    // The server itself saw the cancellation (before the next request, on the same pipe).
    expect(outcomes[1]).toMatchObject({ result: { content: [{ type: 'text', text: '1' }] } });
  });

  it('passes the servers as configured to an agent without mcpCapabilities.acp', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const connection = await connect(['no-acp']);
    const session = await connection.newSession({ cwd: dir, mcpServers: [echo] });
    await session.prompt('[]');
    const { servers } = JSON.parse(agentText(session.state)) as { servers: unknown[] };
    expect(servers).toEqual([echo]);
  });
});
