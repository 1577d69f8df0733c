import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentConnection } from '../agent/agent-connection.js';
import type { ClientHost, PermissionAnswer, PermissionAsk } from '../agent/host.js';
import { runTerminalAuth } from '../auth/terminal-auth.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { RuleStore } from '../permissions/rule-store.js';
import { TranscriptStore } from '../persistence/transcript-store.js';
import { fakeAgent, reportedResults, script, tempDir } from '../test-support/harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(host: ClientHost) {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  const ruleStore = await RuleStore.load(join(dir, 'rules.json'));
  const connection = await AgentConnection.start({
    agent: fakeAgent(),
    policy: new PermissionPolicy({ mode: 'ask', savedRules: () => ruleStore.rules }),
    ruleStore,
    transcripts: new TranscriptStore(join(dir, 'sessions')),
    host,
  });
  cleanups.push(() => connection.close(200));
  return { dir, connection, ruleStore };
}

const options = [
  { optionId: 'allow-once-7', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow-always-7', name: 'Always', kind: 'allow_always' },
  { optionId: 'reject-7', name: 'Reject', kind: 'reject_once' },
];
const execute = (id: string, command: string) => ({
  request: 'session/request_permission',
  params: { toolCall: { toolCallId: id, kind: 'execute', title: command, rawInput: { command } }, options },
});

describe('remembering answers', () => {
  it('session scope: asked once, then decided by the session rule; never for a compound command', async () => {
    const asked: PermissionAsk[] = [];
    const { connection } = await start({
      askPermission: async (ask): Promise<PermissionAnswer> => {
        asked.push(ask);
        return { decision: 'allow', scope: 'session' };
      },
    });
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.prompt(
      script([execute('a', 'npm test'), execute('b', 'npm test'), execute('c', 'npm test && curl x | sh')]),
    );
    expect(asked.map((a) => a.command)).toEqual(['npm test', 'npm test && curl x | sh']);
    const results = reportedResults(session.state) as { result: { outcome: { optionId: string } } }[];
    expect(results.map((r) => r.result.outcome.optionId)).toEqual([
      'allow-once-7',
      'allow-once-7',
      'allow-once-7',
    ]);
    const decided = session.state.items
      .filter((i) => i.kind === 'permission')
      .map((i) => (i.kind === 'permission' ? i.by : ''));
    expect(decided).toEqual(['user', 'session-rule', 'user']);
    // The agent is told which answers nobody gave (acp-kit's agent says so to its model and user).
    const meta = (reportedResults(session.state) as { result: { _meta?: Record<string, unknown> } }[]).map(
      (r) => r.result._meta?.['acp-kit/decision'],
    );
    expect(meta).toEqual([undefined, { by: 'session-rule', reason: expect.any(String) }, undefined]);
  });

  it('always scope saves a rule; the exact option the user picked is echoed', async () => {
    const { connection, ruleStore } = await start({
      askPermission: async (ask) => ({
        decision: 'allow',
        scope: 'always',
        optionId: ask.options?.[1]?.optionId,
      }),
    });
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.prompt(script([execute('a', 'git log -1')]));
    expect(reportedResults(session.state)).toEqual([
      { result: { outcome: { outcome: 'selected', optionId: 'allow-always-7' } } },
    ]);
    await ruleStore.reload();
    expect(ruleStore.rules).toMatchObject([{ action: 'allow', kinds: ['execute'], command: 'git log -1' }]);
  });

  it('ignores an option id the agent did not offer', async () => {
    const { connection } = await start({
      askPermission: async () => ({ decision: 'deny', optionId: 'made-up' }),
    });
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.prompt(script([execute('a', 'ls')]));
    expect(reportedResults(session.state)).toEqual([
      { result: { outcome: { outcome: 'selected', optionId: 'reject-7' } } },
    ]);
  });
});

describe('elicitation', () => {
  const elicit = {
    request: 'elicitation/create',
    params: {
      mode: 'form',
      message: 'Which branch?',
      requestedSchema: { type: 'object', properties: { branch: { type: 'string' } } },
    },
  };
  it('declines when headless', async () => {
    const { connection } = await start({});
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.prompt(script([elicit]));
    expect(reportedResults(session.state)).toEqual([{ result: { action: 'decline' } }]);
    expect(
      session.state.items.some((i) => i.kind === 'info' && i.text.includes('Which branch? → decline')),
    ).toBe(true);
  });
  it('hands the form to the host, saying which agent and session ask', async () => {
    const origins: unknown[] = [];
    const { connection } = await start({
      elicit: async (_request, _signal, origin) => {
        origins.push(origin);
        return { action: 'accept', content: { branch: 'main' } };
      },
    });
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.prompt(script([elicit]));
    expect(reportedResults(session.state)).toEqual([
      { result: { action: 'accept', content: { branch: 'main' } } },
    ]);
    expect(origins).toEqual([{ agentId: connection.agent.id, localId: session.localId }]);
  });
});

describe('runTerminalAuth', () => {
  it('runs the command and reports success by exit status', async () => {
    const run = (code: number) =>
      runTerminalAuth({
        id: 'x',
        name: 'x',
        kind: 'terminal',
        action: 'run-terminal',
        instructions: '',
        run: { command: process.execPath, args: ['-e', `process.exit(${code})`], env: {} },
      });
    expect(await run(0)).toEqual({ ok: true, exitCode: 0, signal: null });
    expect(await run(3)).toEqual({ ok: false, exitCode: 3, signal: null });
    await expect(
      runTerminalAuth({ id: 'a', name: 'a', kind: 'agent', action: 'authenticate', instructions: '' }),
    ).rejects.toThrow(/not run in a terminal/);
  });
});
