/**
 * Our remote client against our remote server over real sockets on 127.0.0.1, in both profiles
 * of the RFD: whole turns, agent→client requests, ordering, many clients at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectClient,
  openSession,
  prompt,
  startHarness,
  type Harness,
  type TestClient,
} from './test-support/remote-harness.js';
import type { RemoteProfile } from './wire.js';

let harness: Harness | undefined;
const clients: TestClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.connection.close();
  await harness?.close();
  harness = undefined;
});

async function client(url: string, profile: RemoteProfile): Promise<TestClient> {
  const made = await connectClient(url, { profile });
  clients.push(made);
  return made;
}

describe.each(['websocket', 'http'] as const)('a remote turn over %s', (profile) => {
  it('runs initialize, session/new and a prompt whose updates arrive in order before its answer', async () => {
    harness = await startHarness();
    const c = await client(harness.listener.url, profile);
    expect(c.channel.profile).toBe(profile);
    const sessionId = await openSession(c);
    const result = await prompt(c, sessionId, 'count 200');
    expect(result.stopReason).toBe('end_turn');
    expect(c.texts).toEqual(Array.from({ length: 200 }, (_, i) => `u-${i + 1}`));
    expect(c.channel.connectionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers the agent’s permission request, and two sessions on one connection stay apart', async () => {
    harness = await startHarness();
    const c = await client(harness.listener.url, profile);
    const first = await openSession(c);
    const { sessionId: second } = await c.connection.newSession({ cwd: '/tmp', mcpServers: [] });
    expect(second).not.toBe(first);
    const [a, b] = await Promise.all([prompt(c, first, 'permission'), prompt(c, second, 'count 3')]);
    expect([a.stopReason, b.stopReason]).toEqual(['end_turn', 'end_turn']);
    expect(c.updates.filter((u) => u.sessionId === first).length).toBe(1);
    expect(c.texts).toContain('chose yes');
    expect(c.updates.filter((u) => u.sessionId === second).length).toBe(3);
  });

  it('carries fs and terminal requests from the agent to the client and back', async () => {
    harness = await startHarness();
    const c = await connectClient(
      harness.listener.url,
      { profile },
      {
        readTextFile: async ({ path }) => ({ content: `content of ${path}` }),
        writeTextFile: async () => ({}),
        createTerminal: async () => ({ terminalId: 'term-1' }),
        waitForTerminalExit: async () => ({ exitCode: 0 }),
        terminalOutput: async () => ({ output: 'hello from the client\n', truncated: false }),
        releaseTerminal: async () => ({}),
      },
    );
    clients.push(c);
    const sessionId = await openSession(c, {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
    });
    await prompt(c, sessionId, 'read /home/me/notes.txt');
    await prompt(c, sessionId, 'write /home/me/out.txt hi');
    await prompt(c, sessionId, 'terminal echo hi');
    expect(c.texts).toEqual([
      'read: content of /home/me/notes.txt',
      'written',
      'output: hello from the client',
    ]);
  });

  it('serves 25 clients at once, each with its own agent', async () => {
    harness = await startHarness({ limits: { maxConnections: 64 } });
    const url = harness.listener.url;
    const all = await Promise.all(Array.from({ length: 25 }, () => client(url, profile)));
    await Promise.all(
      all.map(async (c) => {
        const sessionId = await openSession(c);
        await prompt(c, sessionId, 'count 50');
      }),
    );
    for (const c of all) expect(c.texts).toEqual(Array.from({ length: 50 }, (_, i) => `u-${i + 1}`));
    expect(harness.agents.length).toBe(25);
    expect(new Set(all.map((c) => c.channel.connectionId)).size).toBe(25);
  });

  it('sends thousands of messages without piling up listeners or memory per request', async () => {
    harness = await startHarness();
    const c = await client(harness.listener.url, profile);
    await openSession(c);
    const warnings: string[] = [];
    const onWarning = (warning: Error) =>
      void warnings.push(`${warning.name}: ${warning.message.slice(0, 200)}`);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 1600; i++)
        await c.connection.extRequest('_acp-kit-test/nothing', {}).catch(() => undefined);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it('closing the client ends the connection on the server and stops its agent', async () => {
    let connectionClosed!: () => void;
    const closed = new Promise<void>((resolve) => (connectionClosed = resolve));
    harness = await startHarness({ onConnectionClosed: () => connectionClosed() });
    const c = await client(harness.listener.url, profile);
    await openSession(c);
    await c.connection.close();
    clients.length = 0;
    await harness.agents[0]?.stopped;
    await closed;
    expect(harness.agents[0]?.stops).toBe(1);
    expect(harness.server.size).toBe(0);
  });
});
