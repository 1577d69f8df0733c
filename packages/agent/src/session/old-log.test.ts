/**
 * Session logs written before the agent had its own event model (format 1: v1 `session/update`s as
 * sent) still open: a committed log of a demo session (a tour, `/compact`, a second prompt) written
 * by the previous release, with what that release replayed for it on `session/load`, whole and cut
 * short as a killed agent leaves it. Opened again, a session goes on in format 2 in the same log.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChannelPair } from '@acp-kit/protocol';
import { connectAgent, type SessionUpdate } from '@acp-kit/protocol/v2';
import { serveAgent } from '../agent.js';
import { DemoEngine } from '../demo/demo-engine.js';
import { inProcessAgent, removeDir, strictLogger, tempDir } from '../test-support/harness.js';
import type { TestClient } from '../test-support/test-client.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** The cwd the fixture was recorded in; the test's workspace takes its place. */
const RECORDED_CWD = '/home/user/project';
/** Lines of the log up to the start of the tour's command: where the killed agent stopped. */
const KILLED_AT_LINE = 112;

let work: string;
let data: string;
let client: TestClient | undefined;

beforeEach(async () => {
  work = await tempDir('ws');
  data = await tempDir('data');
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  await Promise.all([work, data].map(removeDir));
});

async function fixture(name: string): Promise<string> {
  return (await readFile(join(FIXTURES, name), 'utf8')).replaceAll(RECORDED_CWD, work);
}

/** Puts the old log (its first `lines` lines, or all) where the demo agent keeps its sessions. */
async function installLog(lines?: number): Promise<string> {
  const meta = JSON.parse(await fixture('v1-log.meta.json')) as { sessionId: string };
  const log = (await fixture('v1-log.jsonl')).split('\n').filter(Boolean);
  const dir = join(data, 'sessions', 'demo');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${meta.sessionId}.meta.json`), JSON.stringify(meta));
  await writeFile(join(dir, `${meta.sessionId}.jsonl`), log.slice(0, lines).join('\n') + '\n');
  return meta.sessionId;
}

async function v1Client(): Promise<TestClient> {
  // As the client the log was recorded with: it shows notices and compaction.
  ({ client } = inProcessAgent(
    { engine: new DemoEngine({ delayMs: 0 }), dataDir: data },
    { capabilities: { session: { notices: {}, compaction: {} } } },
  ));
  await client.initialize();
  return client;
}

/** A session's updates, less the commands announced after every open (not history). */
function history(c: TestClient, sessionId: string) {
  return c.updates(sessionId).filter((u) => u.sessionUpdate !== 'available_commands_update');
}

async function expected(name: string): Promise<{ response: unknown; updates: unknown[] }> {
  return JSON.parse(await fixture(name)) as { response: unknown; updates: unknown[] };
}

describe('a format-1 session log', () => {
  it('is replayed by session/load as the previous release replayed it', async () => {
    const sessionId = await installLog();
    const c = await v1Client();
    const response = await c.connection.loadSession({ sessionId, cwd: work, mcpServers: [] });
    const want = await expected('v1-log.load.json');
    expect(response).toEqual(want.response);
    expect(history(c, sessionId)).toEqual(want.updates);
  });

  it('cut short by a killed agent, replays the unfinished call as interrupted', async () => {
    const sessionId = await installLog(KILLED_AT_LINE);
    const c = await v1Client();
    await c.connection.loadSession({ sessionId, cwd: work, mcpServers: [] });
    expect(history(c, sessionId)).toEqual((await expected('v1-log-killed.load.json')).updates);
  });

  it('goes on in format 2: a new turn is appended, and both parts replay', async () => {
    const sessionId = await installLog();
    const c = await v1Client();
    await c.connection.resumeSession({ sessionId, cwd: work });
    await c.connection.promptSession({ sessionId, prompt: [{ type: 'text', text: 'list *.md' }] });
    const dir = join(data, 'sessions', 'demo');
    const meta = JSON.parse(await readFile(join(dir, `${sessionId}.meta.json`), 'utf8')) as {
      version: number;
    };
    expect(meta.version).toBe(2);
    const records = (await readFile(join(dir, `${sessionId}.jsonl`), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(records).toContain('update');
    expect(records).toContain('event');
    await c.connection.closeSession({ sessionId });

    const before = c.updates(sessionId).length;
    await c.connection.loadSession({ sessionId, cwd: work, mcpServers: [] });
    const old = (await expected('v1-log.load.json')).updates as { sessionUpdate: string }[];
    const replayed = c.updates(sessionId).slice(before);
    const users = replayed.filter((u) => u.sessionUpdate === 'user_message_chunk');
    expect(users.map((u) => (u as { content: { text: string } }).content.text)).toEqual([
      ...old
        .filter((u) => u.sessionUpdate === 'user_message_chunk')
        .map((u) => (u as unknown as { content: { text: string } }).content.text),
      'list *.md',
    ]);
  });

  it('is replayed to a v2 client by session/resume with replayFrom', async () => {
    const sessionId = await installLog();
    const [clientSide, agentSide] = createChannelPair();
    const served = serveAgent(agentSide, {
      engine: new DemoEngine({ delayMs: 0 }),
      dataDir: data,
      logger: strictLogger,
      validateOutgoing: true,
    });
    const updates: SessionUpdate[] = [];
    const negotiated = await connectAgent(
      clientSide,
      {
        v1: {
          sessionUpdate: () => undefined,
          requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
        },
        v2: {
          sessionUpdate: ({ update }) => void updates.push(update),
          requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
        },
      },
      { protocolVersion: 2, info: { name: 'old-log-test', version: '0' }, capabilities: {} },
    );
    try {
      expect(negotiated.version).toBe(2);
      if (negotiated.version !== 2) return;
      await negotiated.connection.resumeSession({ sessionId, cwd: work, replayFrom: { type: 'start' } });
      const kinds = updates.map((u) => u.sessionUpdate);
      expect(kinds.filter((k) => k === 'user_message')).toHaveLength(3);
      expect(updates[0]).toMatchObject({
        sessionUpdate: 'user_message',
        content: [{ type: 'text', text: 'Tour the workspace please' }],
      });
      expect(kinds.filter((k) => k === 'tool_call_update')).toHaveLength(6);
      expect(kinds).toContain('compaction_update');
      expect(kinds.at(-1)).toBe('state_update');
    } finally {
      await negotiated.connection.close();
      await served.closed;
    }
  });
});
