import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentConnection } from '../agent/agent-connection.js';
import type { ClientHost } from '../agent/host.js';
import type { ClientError } from '../errors.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { TranscriptStore } from '../persistence/transcript-store.js';
import { agentText, fakeAgent, reportedResults, script, tempDir, waitGone } from '../test-support/harness.js';
import { ClientSession } from './client-session.js';
import type { ToolCallItem } from './state.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dir(): Promise<string> {
  const t = await tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

async function start(
  agentOptions: Record<string, unknown>,
  transcripts: TranscriptStore,
  mode: 'ask' | 'reads' | 'all' = 'all',
  id = 'fake',
  host: ClientHost = {},
) {
  const connection = await AgentConnection.start({
    agent: fakeAgent(agentOptions, id),
    policy: new PermissionPolicy({ mode }),
    transcripts,
    host,
  });
  cleanups.push(() => connection.close(200));
  return connection;
}

describe('reopening sessions', () => {
  it('resumes with the same agent when it can, loads (without duplicating history) when it can only load, and continues otherwise', async () => {
    const root = await dir();
    const transcripts = new TranscriptStore(join(root, 'sessions'));
    const stateFile = join(root, 'agent-state.json');
    const first = await start({ stateFile }, transcripts);
    const session = await first.newSession({ cwd: root });
    await session.prompt('remember the number 42');
    const previous = { agentId: session.state.agentId, agentSessionId: session.agentSessionId };
    await session.close();
    await first.close();

    const reopen = async () => {
      const { state } = await transcripts.loadState(session.localId);
      return new ClientSession(session.localId, state, await transcripts.append(session.localId));
    };

    const resumed = await reopen();
    const second = await start({ stateFile }, transcripts);
    expect(await second.reattach(resumed, previous)).toBe('resume');
    await resumed.close();

    const loaded = await reopen();
    const third = await start({ stateFile, caps: { loadSession: true } }, transcripts);
    expect(await third.reattach(loaded, previous)).toBe('load');
    const userMessages = loaded.state.items.filter((i) => i.kind === 'message' && i.role === 'user');
    expect(userMessages).toHaveLength(1);
    await loaded.prompt('what was the number?');
    await loaded.close();

    const continued = await reopen();
    const other = await start({}, transcripts, 'all', 'other-agent');
    expect(await other.reattach(continued, previous)).toBe('continuity');
    await continued.prompt('and now?');
    const echoed = agentText(continued.state);
    expect(echoed).toContain('echo: <previous-conversation>');
    expect(echoed).toContain('[text,text]');
    await continued.close();

    const { state, meta } = await transcripts.loadState(session.localId);
    expect(meta.attachments.map((a) => a.how)).toEqual(['new', 'resume', 'load', 'continuity']);
    expect(state.items.filter((i) => i.kind === 'message' && i.role === 'user')).toHaveLength(3);
  });

  it('continues into a new session when the agent no longer knows the session', async () => {
    const root = await dir();
    const transcripts = new TranscriptStore(join(root, 'sessions'));
    const first = await start({}, transcripts);
    const session = await first.newSession({ cwd: root });
    await session.prompt('hello');
    await session.close();
    const previous = { agentId: session.state.agentId, agentSessionId: session.agentSessionId };
    const { state } = await transcripts.loadState(session.localId);
    const reopened = new ClientSession(session.localId, state, await transcripts.append(session.localId));
    const restarted = await start({}, transcripts);
    expect(await restarted.reattach(reopened, previous)).toBe('continuity');
    await reopened.close();
  });
});

describe('services through a real agent process', () => {
  it('serves fs reads and writes inside the roots; an allowed permission request covers its write', async () => {
    const root = await dir();
    const transcripts = new TranscriptStore(join(root, 'sessions'));
    await writeFile(join(root, 'a.txt'), 'hello');
    let asked = 0;
    const connection = await start({}, transcripts, 'ask', 'fake', {
      askPermission: async (ask) => {
        asked++;
        return { decision: ask.outsideRoots ? 'deny' : 'allow' };
      },
    });
    const session = await connection.newSession({ cwd: root });
    const options = [
      { optionId: 'ok', name: 'OK', kind: 'allow_once' },
      { optionId: 'no', name: 'No', kind: 'reject_once' },
    ];
    await session.prompt(
      script([
        { request: 'fs/read_text_file', params: { path: join(root, 'a.txt') } },
        { request: 'fs/read_text_file', params: { path: '/etc/hostname' } },
        {
          request: 'session/request_permission',
          params: {
            toolCall: { toolCallId: 'w', kind: 'edit', locations: [{ path: join(root, 'b.txt') }] },
            options,
          },
        },
        { request: 'fs/write_text_file', params: { path: join(root, 'b.txt'), content: 'written' } },
        { request: 'fs/read_text_file', params: { path: 'relative.txt' } },
      ]),
    );
    const results = reportedResults(session.state) as {
      result?: unknown;
      error?: { code: number; message: string };
    }[];
    expect(results[0]).toEqual({ result: { content: 'hello' } });
    expect(results[1]?.error?.code).toBe(-32603);
    expect(results[2]).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'ok' } } });
    expect(results[3]).toEqual({ result: {} });
    expect(results[4]?.error?.code).toBe(-32602);
    expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('written');
    // Asked twice: the read outside the roots, and the edit request; the write rode on the grant.
    expect(asked).toBe(2);
  });

  it('runs terminals for the agent and kills them when the agent dies', async () => {
    const root = await dir();
    const transcripts = new TranscriptStore(join(root, 'sessions'));
    const connection = await start({}, transcripts);
    const session = await connection.newSession({ cwd: root });
    await session.prompt(script([{ terminal: { command: 'printf', args: ['%s', 'a;b $(x)'] } }]));
    const [created, done] = reportedResults(session.state) as [
      { result: { terminalId: string } },
      { out: { result: { output: string } } },
    ];
    expect(created.result.terminalId).toMatch(/^term-/);
    expect(done.out.result.output).toBe('a;b $(x)');
    expect(session.state.terminals[created.result.terminalId]).toMatchObject({
      origin: 'client',
      output: 'a;b $(x)',
      released: true,
    });

    const pidShown = new Promise<number>((resolve) => {
      const off = session.store.subscribe(() => {
        const view = Object.values(session.state.terminals).find(
          (t) => t.command?.startsWith('sh') && /\d+\n/.test(t.output),
        );
        if (view) {
          off();
          resolve(Number(view.output.trim()));
        }
      });
    });
    const failure = session.prompt(
      script([
        { terminalStart: { command: 'sh', args: ['-c', 'sleep 1000 & echo $!; wait'] } },
        { hang: true },
      ]),
    );
    const orphan = await pidShown;
    expect(connection.terminals.openCount).toBe(1);
    process.kill(connection.pid as number, 'SIGKILL');
    expect(((await failure.catch((e: unknown) => e)) as ClientError).code).toBe('AGENT_EXITED');
    expect(await waitGone(orphan)).toBe(true);
    expect(connection.terminals.openCount).toBe(0);
  });

  it('works with an agent built on the official SDK', async () => {
    const root = await dir();
    const transcripts = new TranscriptStore(join(root, 'sessions'));
    await writeFile(join(root, 'notes.txt'), 'make me loud');
    const connection = await AgentConnection.start({
      agent: {
        id: 'sdk',
        name: 'SDK agent',
        source: 'user',
        command: process.execPath,
        args: [fileURLToPath(new URL('../test-support/sdk-agent.mjs', import.meta.url))],
      },
      policy: new PermissionPolicy({ mode: 'all' }),
      transcripts,
    });
    cleanups.push(() => connection.close(200));
    const session = await connection.newSession({ cwd: root });
    const { stopReason } = await session.prompt(join(root, 'notes.txt'));
    expect(stopReason).toBe('end_turn');
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('MAKE ME LOUD');
    expect(agentText(session.state)).toBe('Edited.');
    expect(session.state.plan).toEqual([{ content: 'Edit the file', priority: 'high', status: 'completed' }]);
    expect((session.state.items.find((i) => i.kind === 'tool_call') as ToolCallItem).status).toBe(
      'completed',
    );
  });
});
