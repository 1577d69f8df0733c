/**
 * Agents that never answer (battery K): opening a session times out, and a turn whose agent
 * ignores `session/cancel` ends after the grace period with the agent stopped. Short real timers
 * against the fake agent as a real child process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AcpClient } from '../client.js';
import type { ClientError } from '../errors.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { fakeAgent, script, tempDir, waitForState, waitGone } from '../test-support/harness.js';
import { AgentConnection, type AgentConnectionOptions } from './agent-connection.js';
import { DEFAULT_TIMEOUTS, resolveTimeouts } from './timeouts.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(agentOptions: Record<string, unknown>, extra: Partial<AgentConnectionOptions> = {}) {
  const connection = await AgentConnection.start({
    agent: fakeAgent(agentOptions),
    policy: new PermissionPolicy({ mode: 'all' }),
    ...extra,
  });
  cleanups.push(() => connection.close(200));
  return connection;
}

async function failure(promise: Promise<unknown>): Promise<{ error: ClientError; ms: number }> {
  const started = Date.now();
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as ClientError;
  return { error, ms: Date.now() - started };
}

describe('opening a session', () => {
  it('times out session/new', async () => {
    const connection = await start({ hangNewSession: true }, { timeouts: { sessionOpenMs: 300 } });
    const { error, ms } = await failure(connection.newSession({ cwd: process.cwd() }));
    expect(error.code).toBe('REQUEST_TIMEOUT');
    expect(error.message).toBe('fake agent fake did not answer session/new within 300 ms');
    expect(error.details).toEqual({ method: 'session/new', timeoutMs: 300 });
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(connection.running).toBe(true);
  });

  it('times out session/resume, and reattaching does not try the next way after a timeout', async () => {
    const connection = await start({ hangResume: true }, { timeouts: { sessionOpenMs: 300 } });
    const { error } = await failure(connection.resumeSession('fake-1', { cwd: process.cwd() }));
    expect(error.code).toBe('REQUEST_TIMEOUT');
    expect(error.message).toContain('session/resume');
    const session = await connection.newSession({ cwd: process.cwd() });
    const previous = { agentId: connection.agent.id, agentSessionId: session.agentSessionId as string };
    const { error: again, ms } = await failure(connection.reattach(session, previous));
    expect(again.code).toBe('REQUEST_TIMEOUT');
    expect(ms).toBeLessThan(1500);
  });

  it('lets session/load replay for longer than the limit, and times out once the replay stalls', async () => {
    const replaying = await start(
      { loadReplay: { count: 8, everyMs: 100 } },
      { timeouts: { sessionOpenMs: 400 } },
    );
    const first = await replaying.newSession({ cwd: process.cwd() });
    const loaded = await replaying.loadSession(first.agentSessionId as string, { cwd: process.cwd() });
    expect(JSON.stringify(loaded.state.items)).toContain('replayed 7');

    const stalling = await start(
      { loadReplay: { count: 3, everyMs: 100, hang: true } },
      { timeouts: { sessionOpenMs: 400 } },
    );
    const second = await stalling.newSession({ cwd: process.cwd() });
    const { error, ms } = await failure(
      stalling.loadSession(second.agentSessionId as string, { cwd: process.cwd() }),
    );
    expect(error.code).toBe('REQUEST_TIMEOUT');
    expect(error.message).toContain('session/load within 400 ms');
    expect(ms).toBeGreaterThanOrEqual(690);
  });
});

describe('a turn whose agent ignores session/cancel', () => {
  it('ends cancelled after the grace period, and the agent is stopped', async () => {
    const connection = await start({}, { timeouts: { cancelGraceMs: 300 } });
    const pid = connection.pid as number;
    const session = await connection.newSession({ cwd: process.cwd() });
    const turn = session.prompt(script([{ text: 'working' }, { hang: true }]));
    await waitForState(session.store, (state) => JSON.stringify(state.items).includes('working'));
    const started = Date.now();
    await session.cancel();
    const result = await turn;
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result.stopReason).toBe('cancelled');
    expect(result.notes).toEqual([
      'the agent did not end the turn within 300 ms of the cancellation; it was stopped',
    ]);
    expect(await waitGone(pid)).toBe(true);
    const state = await waitForState(session.store, (s) => s.status === 'disconnected');
    expect(state.items.filter((i) => i.kind === 'stop')).toMatchObject([{ stopReason: 'cancelled' }]);
    expect(state.lastStopReason).toBe('cancelled');
  });

  it('is not cut short when the agent ends the turn itself', async () => {
    const connection = await start({}, { timeouts: { cancelGraceMs: 300 } });
    const session = await connection.newSession({ cwd: process.cwd() });
    const turn = session.prompt(script([{ waitForCancel: true }]));
    await waitForState(session.store, (state) => state.status === 'running');
    await session.cancel();
    expect(await turn).toEqual({ stopReason: 'cancelled', notes: [] });
    // The grace timer is gone with the turn: the agent keeps running.
    expect((await session.prompt('still there')).stopReason).toBe('end_turn');
    expect(connection.running).toBe(true);
  });
});

describe('configuration', () => {
  it('has documented defaults and refuses values that are not above 0', async () => {
    expect(resolveTimeouts()).toEqual({ initializeMs: 60_000, sessionOpenMs: 60_000, cancelGraceMs: 10_000 });
    expect(resolveTimeouts({ sessionOpenMs: Infinity }).sessionOpenMs).toBe(Infinity);
    expect(DEFAULT_TIMEOUTS.cancelGraceMs).toBe(10_000);
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const env = { ACP_KIT_CONFIG_DIR: dir, ACP_KIT_DATA_DIR: dir };
    for (const bad of [0, -1, Number.NaN]) {
      const error = (await AcpClient.create({ env, timeouts: { cancelGraceMs: bad } }).catch(
        (e: unknown) => e,
      )) as ClientError;
      expect(error.code).toBe('INVALID_ARGUMENT');
    }
  });
});
