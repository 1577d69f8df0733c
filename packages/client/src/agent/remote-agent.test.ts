/**
 * The client engine with remote agents (catalog entries with a `url`): a whole turn with
 * permission, fs and terminal over both profiles (the files and terminals are the client's), the
 * remote agent's stderr and exit, the connection status, and a cut mid-turn that resumes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnPeer } from '@acp-kit/protocol/node';
import { RemoteServer, type RemoteServerOptions } from '@acp-kit/protocol/remote';
import { listenRemote, type RemoteListener } from '@acp-kit/protocol/remote/node';
import {
  startCuttingProxy,
  type CuttingProxy,
} from '../../../protocol/src/remote/test-support/cutting-proxy.js';
import type { AgentEntry } from '../catalog/types.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { FAKE_AGENT, reportedResults, script, tempDir } from '../test-support/harness.js';
import { AgentConnection } from './agent-connection.js';

let listener: RemoteListener | undefined;
let proxy: CuttingProxy | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  proxy?.release();
  await proxy?.close();
  await listener?.close();
  listener = proxy = undefined;
});

/** `acp serve` in miniature: the fake agent as a real process per connection. */
async function serveFake(
  options: Record<string, unknown> = {},
  limits: RemoteServerOptions['limits'] = {},
): Promise<string> {
  const server = new RemoteServer({
    limits,
    startAgent: () => {
      const peer = spawnPeer(process.execPath, [FAKE_AGENT, JSON.stringify(options)], {
        onStderr: (chunk) => server.list().at(-1)?.stderr(chunk.toString('utf8')),
      });
      return { channel: peer.channel, stop: () => peer.shutdown({ graceMs: 500 }) };
    },
  });
  listener = await listenRemote(server);
  return listener.url;
}

function remote(url: string, transport: 'websocket' | 'http'): AgentEntry {
  return { id: 'remote', name: 'remote fake', source: 'user', command: url, args: [], url, transport };
}

async function connect(entry: AgentEntry, extra: Partial<Parameters<typeof AgentConnection.start>[0]> = {}) {
  const connection = await AgentConnection.start({
    agent: entry,
    policy: new PermissionPolicy({ mode: 'all' }),
    ...extra,
  });
  cleanups.push(() => connection.close(500));
  return connection;
}

describe.each(['websocket', 'http'] as const)('a remote agent over %s', (transport) => {
  it('runs a turn with permission, fs and terminal, served by this client on its own files', async () => {
    const url = await serveFake();
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    await writeFile(join(dir, 'notes.txt'), 'local notes');
    const asked: string[] = [];
    const connection = await connect(remote(url, transport), {
      policy: new PermissionPolicy({ mode: 'ask' }),
      host: {
        askPermission: async (ask) => {
          asked.push(ask.kind);
          return { decision: 'allow' };
        },
      },
    });
    expect(connection.remote).toMatchObject({ url, profile: transport, state: 'connected', resumes: 0 });
    expect(connection.pid).toBeUndefined();
    const session = await connection.newSession({ cwd: dir });
    const options = [
      { optionId: 'go', name: 'Allow', kind: 'allow_once' },
      { optionId: 'stop', name: 'Reject', kind: 'reject_once' },
    ];
    const result = await session.prompt(
      script([
        {
          request: 'session/request_permission',
          params: { toolCall: { toolCallId: 'e1', kind: 'edit', title: 'Edit out.txt' }, options },
        },
        { request: 'fs/read_text_file', params: { path: join(dir, 'notes.txt') } },
        {
          request: 'fs/write_text_file',
          params: { path: join(dir, 'out.txt'), content: 'written by a remote agent' },
        },
        { terminal: { command: 'echo', args: ['from the client terminal'], cwd: dir } },
      ]),
    );
    expect(result.stopReason).toBe('end_turn');
    const results = reportedResults(session.state) as { result?: Record<string, unknown> }[];
    expect(results[0]).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'go' } } });
    expect(results[1]).toEqual({ result: { content: 'local notes' } });
    expect(results[2]).toEqual({ result: {} });
    expect(JSON.stringify(results.at(-1))).toContain('from the client terminal');
    expect(await readFile(join(dir, 'out.txt'), 'utf8')).toBe('written by a remote agent');
    expect(asked[0]).toBe('edit');
  });

  it('shows the remote agent’s stderr, and its exit with code and stderr tail', async () => {
    const url = await serveFake();
    const connection = await connect(remote(url, transport));
    const stderr: string[] = [];
    connection.events.on('stderr', ({ text }) => void stderr.push(text));
    const session = await connection.newSession({ cwd: process.cwd() });
    const failure = await session
      .prompt(script([{ stderr: 'remote \x1b[31mtrouble\x1b[0m\n' }, { exit: 4 }]))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect((failure as { code?: string }).code).toBe('AGENT_EXITED');
    expect(String((failure as Error).message)).toMatch(/exited with code 4/);
    expect(stderr.join('')).toContain('remote trouble');
    expect(stderr.join('')).not.toContain('\x1b');
  });

  it('resumes a connection cut mid-turn; the status counts the resumption', async () => {
    const url = await serveFake();
    proxy = await startCuttingProxy(Number(new URL(url).port));
    const p = proxy;
    const connection = await connect(remote(p.url, transport), {
      policy: new PermissionPolicy({ mode: 'ask' }),
      host: {
        askPermission: async () => {
          p.hold();
          p.cut();
          queueMicrotask(() => p.release());
          return { decision: 'allow' };
        },
      },
    });
    const events: string[] = [];
    connection.events.on('remote', (event) => void events.push(event.type));
    const session = await connection.newSession({ cwd: process.cwd() });
    const options = [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }];
    const result = await session.prompt(
      script([
        { text: 'before ' },
        {
          request: 'session/request_permission',
          params: { toolCall: { toolCallId: 'x', kind: 'edit', title: 'x' }, options },
        },
        { flood: 200 },
      ]),
    );
    expect(result.stopReason).toBe('end_turn');
    expect(reportedResults(session.state)).toEqual([
      { result: { outcome: { outcome: 'selected', optionId: 'ok' } } },
    ]);
    expect(events).toContain('resumed');
    expect(connection.remote?.resumes).toBeGreaterThanOrEqual(1);
    expect(connection.remote?.state).toBe('connected');
  });
});

it('a remote agent that refuses the token fails to start with the reason', async () => {
  const server = new RemoteServer({
    startAgent: () => ({ channel: spawnPeer(process.execPath, [FAKE_AGENT, '{}']).channel }),
  });
  listener = await listenRemote(server, { token: 'the-token' });
  const entry = remote(listener.url, 'websocket');
  const error = await AgentConnection.start({
    agent: entry,
    policy: new PermissionPolicy({ mode: 'all' }),
    env: {},
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect((error as { code?: string }).code).toBe('AGENT_START_FAILED');
  expect(String((error as Error).message)).toMatch(/token was missing or wrong/);
  const ok = await connect(entry, { env: { ACP_KIT_REMOTE_TOKEN: 'the-token' } });
  expect(ok.remote?.state).toBe('connected');
});

it.each(['websocket', 'http'] as const)(
  'a remote agent closed while a full server makes it wait (%s) stops at once, not after the Retry-After',
  async (transport) => {
    // A wait the test would not sit out.
    const url = await serveFake({}, { maxConnections: 1, retryAfterSeconds: 30 });
    const holder = await connect(remote(url, 'websocket'));
    const busy: string[] = [];
    const error = await AgentConnection.start(
      { agent: remote(url, transport), policy: new PermissionPolicy({ mode: 'all' }) },
      (starting) =>
        starting.events.on('remote', (event) => {
          if (event.type !== 'busy') return;
          busy.push(event.type);
          void starting.close(500);
        }),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(busy).toEqual(['busy']);
    expect((error as { code?: string }).code).toBe('AGENT_START_FAILED');
    expect(holder.remote?.state).toBe('connected');
  },
);
