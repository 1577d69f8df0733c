import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServer } from '@acp-kit/protocol';
import { ModelEngine } from '../model/model-engine.js';
import { inProcessAgent, removeDir, tempDir } from '../test-support/harness.js';
import {
  MCP_TEST_SERVER,
  startHttpMcpServer,
  startSseMcpServer,
  type HttpMcpServer,
} from '../test-support/mcp-test-server.js';
import { startOpenAIStub, type ModelStub } from '../test-support/model-stubs.js';
import { choose, type TestClient } from '../test-support/test-client.js';
import { silentLogger } from '../util/logger.js';
import { McpServers } from './mcp-connector.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

let work: string;
let data: string;
let stub: ModelStub;
let http: HttpMcpServer;
let client: TestClient;

function stdioServer(name: string, pidFile: string): McpServer {
  return {
    name,
    command: process.execPath,
    args: ['--conditions=@acp-kit/source', '--import', TSX, MCP_TEST_SERVER],
    env: [
      { name: 'MCP_PID_FILE', value: pidFile },
      { name: 'MCP_LABEL', value: name },
    ],
  };
}

async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/^\d+ \(.*\) Z/.test(stat);
}

beforeAll(async () => {
  work = await tempDir('ws');
  data = await tempDir('data');
  stub = await startOpenAIStub();
  http = await startHttpMcpServer(data);
  ({ client } = inProcessAgent(
    {
      engine: new ModelEngine({ env: { HOME: data, ACP_KIT_BASE_URL: stub.baseUrl, ACP_KIT_MODEL: 'm' } }),
      dataDir: data,
      mcp: new McpServers(silentLogger, 20_000),
    },
    { capabilities: { session: { notices: {} } }, permission: choose('allow_once') },
  ));
  await client.initialize();
});

afterAll(async () => {
  await client.close();
  await stub.close();
  await http.close();
  await removeDir(work);
  await removeDir(data);
});

describe('MCP servers', () => {
  it('offers stdio and HTTP server tools to the model through the permission and reporting path', async () => {
    const init = client.connection.initializeResponse;
    expect(init?.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true, acp: true });
    const pidFile = join(data, 'notes.pid');
    const { sessionId } = await client.connection.newSession({
      cwd: work,
      mcpServers: [
        stdioServer('notes', pidFile),
        { type: 'http', name: 'web', url: http.url, headers: [{ name: 'X-Test', value: 'yes' }] },
        { name: 'broken', command: join(work, 'no-such-server'), args: [], env: [] },
      ],
    });
    const notice = await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'notice');
    expect(notice).toMatchObject({ severity: 'error', title: 'MCP server "broken" failed to start' });

    stub.enqueue(
      {
        toolCalls: [
          { id: 'e', name: 'mcp__notes__echo', input: { text: 'hi' } },
          { id: 'w', name: 'mcp__web__write_note', input: { name: 'note.txt', text: 'from http' } },
          { id: 'n', name: 'mcp__notes__write_note', input: { name: 'local.txt', text: 'from stdio' } },
        ],
      },
      { text: ['done'] },
    );
    const { stopReason } = await client.connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: 'use tools' }],
    });
    expect(stopReason).toBe('end_turn');
    const offered = (stub.requests[0] as { tools: { function: { name: string } }[] }).tools.map(
      (t) => t.function.name,
    );
    expect(offered).toEqual(
      expect.arrayContaining([
        'mcp__notes__echo',
        'mcp__notes__write_note',
        'mcp__web__echo',
        'mcp__web__wait',
      ]),
    );
    expect(offered.some((name) => name.startsWith('mcp__broken'))).toBe(false);

    const calls = client.toolCalls(sessionId);
    expect(calls.map((c) => [c.title, c.kind, c.status])).toEqual([
      ['notes: Echo', 'read', 'completed'],
      ['web: write_note', 'other', 'completed'],
      ['notes: write_note', 'other', 'completed'],
    ]);
    expect(calls[0]).toMatchObject({
      content: [{ type: 'content', content: { type: 'text', text: 'notes echo: hi' } }],
    });
    // Read-only tools run without asking; the others went through session/request_permission.
    expect(client.permissionRequests.map((r) => r.toolCall.title)).toEqual([
      'web: write_note',
      'notes: write_note',
    ]);
    // The stdio server runs in the session's cwd.
    expect(await readFile(join(work, 'local.txt'), 'utf8')).toBe('from stdio');
    expect(await readFile(join(data, 'note.txt'), 'utf8')).toBe('from http');
    expect(http.headers.some((h) => h['x-test'] === 'yes')).toBe(true);
    const results = (stub.requests[1] as { messages: { role: string; content: string }[] }).messages.filter(
      (m) => m.role === 'tool',
    );
    expect(results[0]?.content).toBe('notes echo: hi');

    // Cancelling a running MCP tool.
    stub.enqueue({ toolCalls: [{ id: 'wait', name: 'mcp__notes__wait', input: {} }] });
    await client.connection.setSessionMode({ sessionId, modeId: 'full-access' });
    const running = client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'wait' }] });
    const waitCall = (await client.waitForUpdate(
      sessionId,
      (u) => u.sessionUpdate === 'tool_call' && u.title === 'notes: wait',
    )) as { toolCallId: string };
    await client.waitForUpdate(
      sessionId,
      (u) =>
        u.sessionUpdate === 'tool_call_update' &&
        u.toolCallId === waitCall.toolCallId &&
        u.status === 'in_progress',
    );
    await client.connection.cancelSession({ sessionId });
    expect((await running).stopReason).toBe('cancelled');
    expect(client.toolCalls(sessionId).at(-1)).toMatchObject({
      status: 'failed',
      rawOutput: { cancelled: true },
    });

    // Closing the session stops its servers.
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await alive(pid)).toBe(true);
    await client.connection.closeSession({ sessionId });
    expect(await alive(pid)).toBe(false);
  });

  it('uses HTTP+SSE servers, with the headers on the event stream and on every message', async () => {
    const sse = await startSseMcpServer(data);
    try {
      const { sessionId } = await client.connection.newSession({
        cwd: work,
        mcpServers: [
          { type: 'sse', name: 'events', url: sse.url, headers: [{ name: 'X-Sse', value: 'on' }] },
        ],
      });
      const before = stub.requests.length;
      stub.enqueue(
        { toolCalls: [{ id: 's', name: 'mcp__events__echo', input: { text: 'streamed' } }] },
        { text: ['ok'] },
      );
      await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'sse' }] });
      const offered = (stub.requests[before] as { tools: { function: { name: string } }[] }).tools.map(
        (t) => t.function.name,
      );
      expect(offered).toContain('mcp__events__echo');
      const call = client.toolCalls(sessionId).at(-1);
      expect(call).toMatchObject({
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'sse echo: streamed' } }],
      });
      expect(sse.headers.filter((h) => h['x-sse'] === 'on').length).toBeGreaterThanOrEqual(2);
      await client.connection.closeSession({ sessionId });
    } finally {
      await sse.close();
    }
  });

  it('reconnects the servers given to session/resume', async () => {
    await writeFile(join(work, 'x.txt'), 'x');
    const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    await client.connection.closeSession({ sessionId });
    await client.connection.resumeSession({
      sessionId,
      cwd: work,
      mcpServers: [{ type: 'http', name: 'again', url: http.url, headers: [] }],
    });
    const before = stub.requests.length;
    stub.enqueue({ text: ['ok'] });
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'tools?' }] });
    const offered = (stub.requests[before] as { tools: { function: { name: string } }[] }).tools.map(
      (t) => t.function.name,
    );
    expect(offered).toContain('mcp__again__echo');
  });
});
