import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCodes } from '@acp-kit/protocol';
import { DemoEngine } from '../demo/demo-engine.js';
import { errorOf, inProcessAgent, removeDir, tempDir } from '../test-support/harness.js';
import type { TestClient } from '../test-support/test-client.js';

let work: string;
let other: string;
let data: string;
let client: TestClient;

beforeEach(async () => {
  work = await tempDir('ws');
  other = await tempDir('other');
  data = await tempDir('data');
  await writeFile(join(work, 'notes.txt'), 'alpha\nbeta\n');
  ({ client } = inProcessAgent({ engine: new DemoEngine({ delayMs: 0 }), dataDir: data, listPageSize: 2 }));
  await client.initialize();
});

afterEach(async () => {
  await client.close();
  await Promise.all([work, other, data].map(removeDir));
});

describe('session lifecycle', () => {
  it('lists sessions by cwd with titles, updatedAt and cursor paging', async () => {
    const ids: string[] = [];
    for (const text of ['first task', 'second task', 'third task']) {
      const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
      await client.connection.promptSession({
        sessionId,
        prompt: [{ type: 'text', text: `read notes.txt ${text}` }],
      });
      ids.push(sessionId);
    }
    await client.connection.newSession({ cwd: other, mcpServers: [] });
    const info = await client.waitForUpdate(
      ids[0] as string,
      (u) => u.sessionUpdate === 'session_info_update',
    );
    expect(info).toMatchObject({ title: 'read notes.txt first task' });

    const page1 = await client.connection.listSessions({ cwd: work });
    expect(page1.sessions).toHaveLength(2);
    expect(page1.nextCursor).toBeTruthy();
    const page2 = await client.connection.listSessions({ cwd: `${work}/`, cursor: page1.nextCursor });
    expect(page2.nextCursor ?? undefined).toBeUndefined();
    const listed = [...page1.sessions, ...page2.sessions];
    expect(listed.map((s) => s.sessionId)).toEqual([...ids].reverse());
    expect(listed.every((s) => s.cwd === work && typeof s.updatedAt === 'string')).toBe(true);
    expect(listed.map((s) => s.title)).toContain('read notes.txt second task');

    const all = await client.connection.listSessions({});
    expect(all.sessions.length + (all.nextCursor ? 2 : 0)).toBeGreaterThanOrEqual(2);
    const bad = await errorOf(client.connection.listSessions({ cursor: 'nonsense' }));
    expect(bad.code).toBe(ErrorCodes.InvalidParams);
  });

  it('loads a session by replaying its whole history before answering', async () => {
    const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'hello there' }] });
    const liveCalls = client.toolCalls(sessionId);
    const liveText = client.agentText(sessionId);
    await client.connection.closeSession({ sessionId });
    client.notifications.length = 0;

    const response = await client.connection.loadSession({ sessionId, cwd: work, mcpServers: [] });
    // Everything below arrived before the response.
    const replay = client.updates(sessionId);
    expect(response.modes?.currentModeId).toBe('ask');
    expect(replay[0]).toMatchObject({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'hello there' },
    });
    expect(client.agentText(sessionId)).toBe(liveText);
    // Each message is replayed as one chunk.
    const messageIds = client
      .updates(sessionId, 'agent_message_chunk')
      .map((u) => (u as { messageId: string }).messageId);
    expect(new Set(messageIds).size).toBe(messageIds.length);
    const replayedCalls = client.updates(sessionId, 'tool_call');
    expect(replayedCalls).toHaveLength(liveCalls.length);
    expect(client.updates(sessionId, 'tool_call_update')).toHaveLength(0);
    expect(replayedCalls.map((c) => (c as { status: string }).status)).toEqual(
      liveCalls.map((c) => c.status),
    );
    const plans = client.updates(sessionId, 'plan');
    expect(plans).toHaveLength(1);

    // The loaded session takes prompts again.
    const { stopReason } = await client.connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: 'read notes.txt' }],
    });
    expect(stopReason).toBe('end_turn');
  });

  it('resumes without replay, closes and deletes', async () => {
    const { sessionId } = await client.connection.newSession({ cwd: work, mcpServers: [] });
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'read notes.txt' }] });
    await client.connection.setSessionMode({ sessionId, modeId: 'auto-edit' });
    await client.connection.closeSession({ sessionId });

    const closed = await errorOf(
      client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'hi' }] }),
    );
    expect(closed.code).toBe(ErrorCodes.ResourceNotFound);
    expect(closed.message).toMatch(/load or resume/);

    const before = client.notifications.length;
    const resumed = await client.connection.resumeSession({ sessionId, cwd: work, mcpServers: [] });
    expect(resumed.modes?.currentModeId).toBe('auto-edit');
    expect(
      client.notifications.slice(before).some((n) => n.update.sessionUpdate === 'user_message_chunk'),
    ).toBe(false);
    await client.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'read notes.txt' }] });

    const wrongCwd = await errorOf(client.connection.loadSession({ sessionId, cwd: other, mcpServers: [] }));
    expect(wrongCwd.code).toBe(ErrorCodes.InvalidParams);

    await client.connection.deleteSession({ sessionId });
    expect((await client.connection.listSessions({ cwd: work })).sessions).toHaveLength(0);
    const gone = await errorOf(client.connection.loadSession({ sessionId, cwd: work, mcpServers: [] }));
    expect(gone.code).toBe(ErrorCodes.ResourceNotFound);
    expect((await errorOf(client.connection.deleteSession({ sessionId }))).code).toBe(
      ErrorCodes.ResourceNotFound,
    );
    expect((await errorOf(client.connection.closeSession({ sessionId: 'nope' }))).code).toBe(
      ErrorCodes.ResourceNotFound,
    );
    const traversal = await errorOf(
      client.connection.loadSession({ sessionId: '../x', cwd: work, mcpServers: [] }),
    );
    expect(traversal.code).toBe(ErrorCodes.ResourceNotFound);
  });

  it('rejects a cwd that does not exist', async () => {
    const error = await errorOf(client.connection.newSession({ cwd: join(work, 'missing'), mcpServers: [] }));
    expect(error.code).toBe(ErrorCodes.InvalidParams);
    expect(error.message).toMatch(/Not a directory/);
  });
});
