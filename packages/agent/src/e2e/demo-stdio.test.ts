/**
 * The demo agent as a real child process over stdio, driven by our client connection: what a
 * client such as Zed sees.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, removeDir, spawnAgent, tempDir, type SpawnedAgent } from '../test-support/harness.js';
import { startHttpMcpServer } from '../test-support/mcp-test-server.js';
import { choose, waitForCancel } from '../test-support/test-client.js';

let work: string;
let home: string;
let agent: SpawnedAgent;

beforeAll(async () => {
  work = await tempDir('ws');
  home = await tempDir('home');
  await writeFile(join(work, 'README.md'), '# E2E\n\nline two\n');
  agent = spawnAgent(['--demo'], {
    cwd: work,
    env: cleanEnv(home, { ACP_KIT_DATA_DIR: join(home, 'sessions') }),
    client: {
      capabilities: {
        fs: { readTextFile: true, writeTextFile: true },
        terminal: true,
        session: { notices: {}, compaction: {}, configOptions: { boolean: {} } },
      },
      permission: choose('allow_once'),
    },
  });
  await agent.client.initialize();
});

afterAll(async () => {
  await agent.stop();
  await removeDir(work);
  await removeDir(home);
});

describe('demo agent over stdio', () => {
  it('runs the tour through client fs and a client terminal, with every update kind', async () => {
    const { client } = agent;
    const { sessionId, configOptions } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    expect(configOptions?.map((o) => `${o.id}:${o.type}`)).toEqual([
      'mode:select',
      'model:select',
      'thoughts:boolean',
    ]);
    const { stopReason } = await client.connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: 'Hello README.md' }],
    });
    expect(stopReason).toBe('end_turn');
    const kinds = new Set(client.updates(sessionId).map((u) => u.sessionUpdate));
    for (const kind of [
      'available_commands_update',
      'agent_thought_chunk',
      'agent_message_chunk',
      'notice',
      'plan',
      'tool_call',
      'tool_call_update',
      'usage_update',
      'session_info_update',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    expect(client.reads.map((r) => r.path)).toContain(join(work, 'README.md'));
    expect(client.writes[0]?.path).toBe(join(work, 'ACP_DEMO.md'));
    expect(await readFile(join(work, 'ACP_DEMO.md'), 'utf8')).toContain('Read `README.md`');
    const terminal = [...client.terminals.all.values()][0];
    expect(terminal?.released).toBe(true);
    const command = client.toolCalls(sessionId).find((c) => c.kind === 'execute') as {
      content: { type: string }[];
    };
    expect(command.content[0]?.type).toBe('terminal');
    // The v1 tour is the one it always was: five steps, one command, no background work, text in
    // chunks only (the progress message and the rewritten thought are for v2 clients).
    const plans = client.updates(sessionId, 'plan') as { entries: unknown[] }[];
    expect(plans.at(-1)?.entries).toHaveLength(5);
    expect(client.toolCalls(sessionId).filter((c) => c.kind === 'execute')).toHaveLength(1);
    expect(client.agentText(sessionId)).not.toContain('Tour progress');

    // A client-set boolean option changes the next turn.
    await client.connection.setSessionConfigOption({
      sessionId,
      configId: 'thoughts',
      type: 'boolean',
      value: false,
    });
    const before = client.updates(sessionId, 'agent_thought_chunk').length;
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'again' }] });
    expect(client.updates(sessionId, 'agent_thought_chunk')).toHaveLength(before);
  });

  it('connects the MCP servers it is given and names their tools', async () => {
    const { client } = agent;
    const http = await startHttpMcpServer(home);
    try {
      const { sessionId } = await client.connection.newSession({
        cwd: work,
        mcpServers: [{ type: 'http', name: 'docs', url: http.url, headers: [] }],
      });
      await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'tour' }] });
      expect(client.agentText(sessionId)).toContain('`mcp__docs__echo`');
    } finally {
      await http.close();
    }
  });

  it('compacts with compaction updates when the client supports them', async () => {
    const { client } = agent;
    const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'read README.md' }] });
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: '/compact' }] });
    const statuses = client
      .updates(sessionId, 'compaction_update')
      .map((u) => (u as { status: string }).status);
    expect(statuses).toEqual(['in_progress', 'completed']);
    const summary = client
      .updates(sessionId, 'compaction_summary_chunk')
      .map((u) => (u as { content: { text: string } }).content.text)
      .join('');
    expect(summary).toMatch(/2 prompts/);
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: '/help' }] });
    expect(client.agentText(sessionId)).toMatch(/no language model[\s\S]*\/compact/);
  });

  it('cancels a slow stream over real pipes within milliseconds', async () => {
    const { client } = agent;
    const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    const running = client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'slow' }] });
    await client.waitForUpdate(sessionId, (u) => u.sessionUpdate === 'agent_message_chunk');
    const started = Date.now();
    await client.connection.cancelSession({ sessionId });
    expect((await running).stopReason).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('a killed agent', () => {
  it('loses nothing it streamed: the restarted agent lists and replays the session', async () => {
    const data = join(home, 'killed');
    const env = cleanEnv(home, { ACP_KIT_DATA_DIR: data });
    const first = spawnAgent(['--demo'], { cwd: work, env, client: { permission: waitForCancel } });
    await first.client.initialize();
    const { sessionId } = await first.client.connection.newSession({ cwd: work, mcpServers: [] });
    void first.client.connection
      .promptSession({ sessionId, prompt: [{ type: 'text', text: 'kill me mid-turn' }] })
      .catch(() => {});
    await first.client.waitForPermissionRequests(1);
    const streamed = first.client.agentText(sessionId);
    first.peer.child.kill('SIGKILL');
    await first.peer.exited;
    await first.client.connection.close();

    const second = spawnAgent(['--demo'], { cwd: work, env });
    try {
      await second.client.initialize();
      const { sessions } = await second.client.connection.listSessions({ cwd: work });
      expect(sessions.map((s) => [s.sessionId, s.title])).toEqual([[sessionId, 'kill me mid-turn']]);
      await second.client.connection.loadSession({ sessionId, cwd: work, mcpServers: [] });
      expect(second.client.updates(sessionId)[0]).toMatchObject({
        sessionUpdate: 'user_message_chunk',
        content: { text: 'kill me mid-turn' },
      });
      expect(second.client.agentText(sessionId)).toBe(streamed);
      const calls = second.client.toolCalls(sessionId);
      expect(calls.map((c) => [c.kind, c.status])).toEqual([
        ['search', 'completed'],
        ['search', 'completed'],
        ['read', 'completed'],
        ['edit', 'failed'],
      ]);
      expect(JSON.stringify(calls[3])).toMatch(/Interrupted/);
    } finally {
      await second.stop();
    }
  });
});
