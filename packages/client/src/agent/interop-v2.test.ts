/**
 * The client engine (AgentConnection, sessions, store) against agents written with the official
 * SDK, over real child processes: its experimental v2 API alone, and its `AgentProtocolRouter`
 * with v1 and v2 implementations (spoken to in v2 by default, in v1 when forced) or v1 only. The
 * agents are the protocol interop suite's (packages/protocol/test/interop/fixtures/).
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEntry } from '../catalog/types.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { agentText, waitForState } from '../test-support/harness.js';
import { AgentConnection } from './agent-connection.js';
import type { ClientHost, ElicitationOrigin } from './host.js';

const SDK_AGENT = fileURLToPath(
  new URL('../../../protocol/test/interop/fixtures/sdk-v2-agent.mjs', import.meta.url),
);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function sdkAgent(mode: 'v2' | 'router' | 'router-v1'): AgentEntry {
  return {
    id: `sdk-${mode}`,
    name: `SDK ${mode}`,
    source: 'user',
    command: process.execPath,
    args: [SDK_AGENT, mode],
  };
}

async function start(
  mode: 'v2' | 'router' | 'router-v1',
  protocolVersion?: 1 | 2,
  host?: ClientHost,
): Promise<AgentConnection> {
  const connection = await AgentConnection.start({
    agent: sdkAgent(mode),
    policy: new PermissionPolicy({ mode: 'all' }),
    ...(protocolVersion ? { protocolVersion } : {}),
    ...(host ? { host } : {}),
  });
  cleanups.push(() => connection.close(200));
  return connection;
}

/**
 * The scenario every agent plays: a streamed answer, a permission question, a cancelled turn.
 * The v1 agent asks about an execute call without input (allowed by the policy); the v2 agent asks
 * about `npm test` in /work, which is outside the session's roots: denied by default whatever the
 * mode, so it must have reached the policy as that command.
 */
async function playScenario(connection: AgentConnection, answer: 'allow' | 'reject'): Promise<void> {
  const session = await connection.newSession({ cwd: process.cwd() });
  expect((await session.prompt('stream')).stopReason).toBe('end_turn');
  expect(agentText(session.state)).toContain('one two three');
  // The agent's echo of the prompt (v2 sends the user message it inserted) is not shown twice.
  const userMessages = session.state.items.filter((item) => item.kind === 'message' && item.role === 'user');
  expect(userMessages).toHaveLength(1);
  expect(session.state.status).toBe('idle');

  expect((await session.prompt('permission')).stopReason).toBe('end_turn');
  expect(agentText(session.state)).toMatch(new RegExp(`${answer}$`));
  const asked = session.state.items.find((item) => item.kind === 'permission');
  if (answer === 'reject')
    expect(asked).toMatchObject({ request: { command: 'npm test' }, decision: 'deny' });

  const turn = session.prompt('wait for cancel');
  await waitForState(session.store, (s) => s.status === 'running');
  await session.cancel();
  expect((await turn).stopReason).toBe('cancelled');
}

describe('the client engine ↔ agents on the official SDK (child processes)', () => {
  it('an agent on the SDK experimental v2 API is spoken to in v2: a turn ends at its idle state', async () => {
    const connection = await start('v2');
    expect(connection.protocolVersion).toBe(2);
    expect(connection.agentInfo?.name).toBe('sdk-v2-interop-agent');
    await playScenario(connection, 'reject');
  });

  it("the SDK's AgentProtocolRouter with v1 and v2 is spoken to in v2", async () => {
    const connection = await start('router');
    expect(connection.protocolVersion).toBe(2);
    await playScenario(connection, 'reject');
  });

  it('the same router, forced to v1 (--protocol 1), is spoken to in v1', async () => {
    const connection = await start('router', 1);
    expect(connection.protocolVersion).toBe(1);
    expect(connection.agentInfo?.name).toBe('sdk-v1-interop-agent');
    await playScenario(connection, 'allow');
  });

  it('a catalog entry\'s "protocol": 1 is spoken to in v1 without the option', async () => {
    const connection = await AgentConnection.start({
      agent: { ...sdkAgent('router'), protocol: 1 },
      policy: new PermissionPolicy({ mode: 'all' }),
    });
    cleanups.push(() => connection.close(200));
    expect(connection.protocolVersion).toBe(1);
  });

  it("the SDK's router with v1 only answers 1 and is spoken to in v1", async () => {
    const connection = await start('router-v1');
    expect(connection.protocolVersion).toBe(1);
    await playScenario(connection, 'allow');
  });

  it('forcing v2 on a v1-only agent fails at the handshake with a clear error', async () => {
    const failure = await start('router-v1', 2).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL_VERSION' });
  });
});

/** The `initialize` params the agent received (each fixture echoes them in `_meta.seen`). */
function seenByAgent(connection: AgentConnection): { capabilities?: unknown } {
  const answer = connection.connection.initializeResponse as { _meta?: { seen?: object } } | undefined;
  return answer?._meta?.seen ?? {};
}

describe('forms (elicitation/create) from an agent on the SDK experimental v2 API', () => {
  it('reach the host with the session that asks, and its answer reaches the agent, as in v1', async () => {
    const asked: { message: string; origin: ElicitationOrigin }[] = [];
    const connection = await start('v2', undefined, {
      elicit: async (request, _signal, origin) => {
        asked.push({ message: request.message, origin });
        return { action: 'accept', content: { branch: 'main' } };
      },
    });
    expect(seenByAgent(connection).capabilities).toMatchObject({ elicitation: { form: {} } });
    const session = await connection.newSession({ cwd: process.cwd() });
    expect((await session.prompt('form')).stopReason).toBe('end_turn');
    expect(asked).toEqual([
      { message: 'Which branch?', origin: { agentId: connection.agent.id, localId: session.localId } },
    ]);
    expect(agentText(session.state)).toContain('form: accept {"branch":"main"}');
    expect(session.state.items).toContainEqual(
      expect.objectContaining({ kind: 'info', text: 'Which branch? → accept' }),
    );
  });

  it('headless (acp run): forms are not advertised, and one asked anyway is declined and recorded', async () => {
    const connection = await start('v2');
    expect(seenByAgent(connection).capabilities).not.toHaveProperty('elicitation');
    const session = await connection.newSession({ cwd: process.cwd() });
    expect((await session.prompt('form')).stopReason).toBe('end_turn');
    expect(agentText(session.state)).toContain('form: decline');
    expect(session.state.items).toContainEqual(
      expect.objectContaining({ kind: 'info', text: 'Which branch? → decline' }),
    );
  });
});
