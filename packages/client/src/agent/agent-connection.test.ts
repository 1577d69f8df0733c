import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientError } from '../errors.js';
import { TranscriptStore } from '../persistence/transcript-store.js';
import type { ToolCallItem } from '../session/state.js';
import {
  agentText,
  fakeAgent,
  nextEvent,
  reportedResults,
  script,
  startFake,
  tempDir,
  waitForState,
} from '../test-support/harness.js';
import { AgentConnection, type AgentConnectionEvents } from './agent-connection.js';
import { PermissionPolicy } from '../permissions/policy.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(
  agentOptions: Record<string, unknown> = {},
  extra: Parameters<typeof startFake>[2] = {},
) {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  const started = await startFake(dir, agentOptions, extra);
  cleanups.push(() => started.connection.close(200));
  return { dir, ...started };
}

describe('AgentConnection against a scripted agent process', () => {
  it('asks for v2 with the v1 fields beside, advertising exactly what each face serves', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const record = join(dir, 'init.json');
    await setup(
      { recordInit: record },
      { host: { elicit: () => Promise.resolve({ action: 'decline' as const }) } },
    );
    const init = JSON.parse(await readFile(record, 'utf8'));
    // One initialize for both versions: a v1 agent reads its own fields and answers 1.
    expect(init.protocolVersion).toBe(2);
    expect(init.capabilities).toEqual({ auth: { terminal: {} }, elicitation: { form: {} } });
    expect(init.info.name).toBe('acp-kit');
    expect(init.clientCapabilities).toEqual({
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
      auth: { terminal: true },
      elicitation: { form: {} },
      session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
      _meta: { terminal_output: true, 'terminal-auth': true },
    });
    expect(init.clientInfo.name).toBe('acp-kit');
    // A host that cannot show forms (acp run) does not advertise them.
    const headless = join(dir, 'init-headless.json');
    await setup({ recordInit: headless });
    const bare = JSON.parse(await readFile(headless, 'utf8'));
    expect(bare.clientCapabilities.elicitation).toBeUndefined();
    expect(bare.capabilities).toEqual({ auth: { terminal: {} } });
  });

  it('runs a turn: updates sent right after session/new are kept, messages grouped, transcript written', async () => {
    const { connection, transcripts } = await setup();
    const session = await connection.newSession({ cwd: process.cwd() });
    const withCommands = await waitForState(session.store, (s) => s.commands.length > 0);
    expect(withCommands.commands[0]?.name).toBe('review');
    expect(session.state.modes?.currentModeId).toBe('ask');
    const { stopReason } = await session.prompt('hello');
    expect(stopReason).toBe('end_turn');
    const messages = session.state.items.filter((item) => item.kind === 'message');
    expect(messages.map((m) => (m.kind === 'message' ? m.role : ''))).toEqual(['user', 'agent']);
    expect(agentText(session.state)).toBe('echo: hello [text]');
    await session.close();
    const { state } = await transcripts.loadState(session.localId);
    expect(agentText(state)).toBe('echo: hello [text]');
    expect(state.lastStopReason).toBe('end_turn');
    const trace = await readFile(join(transcripts.sessionDir(session.localId), 'trace.jsonl'), 'utf8');
    const methods = trace
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).frame.method)
      .filter(Boolean);
    expect(methods).toEqual(
      expect.arrayContaining(['initialize', 'session/new', 'session/prompt', 'session/update']),
    );
  });

  it('tolerates non-JSON noise on stdout and reports it once', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const connection = await AgentConnection.start({
      agent: fakeAgent({ noise: true }),
      policy: new PermissionPolicy({ mode: 'all' }),
      transcripts: new TranscriptStore(dir),
    }).catch((error: unknown) => {
      throw error;
    });
    cleanups.push(() => connection.close(200));
    const noises: string[] = [];
    connection.events.on('noise', ({ sample }) => noises.push(sample));
    const session = await connection.newSession({ cwd: dir });
    const result = await session.prompt(
      script([{ raw: 'DEBUG: thinking...' }, { raw: 'more junk' }, { text: 'done' }]),
    );
    expect(result.stopReason).toBe('end_turn');
    expect(agentText(session.state)).toBe('done');
    // The banner came before the listener: the report is kept on the connection.
    expect(noises).toEqual([]);
    expect(connection.noiseReport).toEqual({ count: 4, sample: 'Starting fake agent v1.0...' });
  });

  it('reports noise once, through the event', async () => {
    const { connection } = await setup();
    const noise = nextEvent<AgentConnectionEvents, 'noise'>(connection.events, 'noise');
    const session = await connection.newSession({ cwd: process.cwd() });
    let count = 0;
    connection.events.on('noise', () => count++);
    await session.prompt(
      script([{ raw: 'Loading \x1b[31mmodel\x1b[0m' }, { raw: 'second junk line' }, { text: 'ok' }]),
    );
    expect((await noise).sample).toBe('Loading model');
    expect(count).toBe(1);
    expect(connection.noiseReport.count).toBe(2);
  });

  it('keeps unknown update variants and values raw, and reports them once', async () => {
    const { connection } = await setup();
    const diagnostics: string[] = [];
    connection.events.on('diagnostic', ({ message }) => diagnostics.push(message));
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.prompt(
      script([
        { update: { sessionUpdate: 'future_thing', payload: 1 } },
        { update: { sessionUpdate: 'future_thing', payload: 2 } },
        {
          update: {
            sessionUpdate: 'tool_call',
            toolCallId: 't1',
            title: 'Teleport',
            kind: 'teleport',
            status: 'pending',
          },
        },
        { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'hologram', data: 'x' } } },
      ]),
    );
    const unknown = session.state.items.filter((item) => item.kind === 'unknown');
    expect(unknown).toHaveLength(2);
    expect(session.state.unknownKinds).toEqual(['future_thing']);
    const tool = session.state.items.find((item) => item.kind === 'tool_call') as ToolCallItem;
    expect(tool.toolKind).toBe('teleport');
    const hologram = session.state.items.find((item) => item.kind === 'message' && item.role === 'agent');
    expect(hologram?.kind === 'message' && (hologram.content[0] as { type: string }).type).toBe('hologram');
    expect(diagnostics.filter((d) => d.includes('future_thing'))).toHaveLength(1);
  });

  it('answers permission requests for tool calls it never saw, with an offered option id', async () => {
    const { connection } = await setup({}, { mode: 'reads' });
    const session = await connection.newSession({ cwd: process.cwd() });
    const options = [
      { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
      { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
    ];
    await session.prompt(
      script([
        {
          request: 'session/request_permission',
          params: {
            toolCall: {
              toolCallId: 'ghost',
              kind: 'execute',
              title: 'rm',
              rawInput: { command: 'rm -rf build' },
            },
            options,
          },
        },
        {
          request: 'session/request_permission',
          params: {
            toolCall: {
              toolCallId: 'ghost2',
              kind: 'read',
              locations: [{ path: join(process.cwd(), 'package.json') }],
            },
            options,
          },
        },
      ]),
    );
    // Headless: the policy answered both, and the answers say so (`_meta["acp-kit/decision"]`).
    const byPolicy = { 'acp-kit/decision': { by: 'default', reason: expect.any(String) } };
    expect(reportedResults(session.state)).toEqual([
      { result: { outcome: { outcome: 'selected', optionId: 'cancel' }, _meta: byPolicy } },
      { result: { outcome: { outcome: 'selected', optionId: 'proceed_once' }, _meta: byPolicy } },
    ]);
    const decisions = session.state.items.filter((item) => item.kind === 'permission');
    expect(decisions.map((d) => (d.kind === 'permission' ? d.decision : ''))).toEqual(['deny', 'allow']);
  });

  it('fails the pending prompt with the exit reason when the agent crashes mid-turn, keeping what it sent', async () => {
    const { connection, transcripts } = await setup();
    const exit = nextEvent<AgentConnectionEvents, 'exit'>(connection.events, 'exit');
    const session = await connection.newSession({ cwd: process.cwd() });
    const failure = await session
      .prompt(
        script([
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'c1',
              title: 'Build',
              kind: 'execute',
              status: 'in_progress',
            },
          },
          { text: 'partial answer' },
          { stderr: 'panic: out of cheese\n' },
          { exit: 3 },
        ]),
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ClientError);
    const error = failure as ClientError;
    expect(error.code).toBe('AGENT_EXITED');
    expect(error.details.exitCode).toBe(3);
    expect(String(error.details.stderrTail)).toContain('panic: out of cheese');
    expect(error.message).toContain('exited with code 3');
    const state = session.state;
    expect(agentText(state)).toBe('partial answer');
    expect((state.items.find((i) => i.kind === 'tool_call') as ToolCallItem).clientStatus).toBe('failed');
    expect(state.status).toBe('disconnected');
    expect((await exit).expected).toBe(false);
    await session.close();
    const reloaded = await transcripts.loadState(session.localId);
    expect(agentText(reloaded.state)).toBe('partial answer');
    expect(reloaded.state.lastError?.exitCode).toBe(3);
  });

  it('after a crash, restarts and reattaches the same local session', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const { connection } = await setup({ stateFile: join(dir, 'state.json') });
    const session = await connection.newSession({ cwd: dir });
    await session.prompt('before');
    await session.prompt(script([{ exit: 1 }])).catch(() => undefined);
    expect(session.attached).toBe(false);
    await connection.restart();
    const how = await connection.reattach(session, {
      agentId: session.state.agentId,
      agentSessionId: session.state.agentSessionId,
    });
    expect(how).toBe('resume');
    expect((await session.prompt('after')).stopReason).toBe('end_turn');
    expect(agentText(session.state)).toBe('echo: before [text]echo: after [text]');
    expect(session.state.items.filter((i) => i.kind === 'error')).toHaveLength(1);
  });

  it('reports a stall, then cancel: late updates still apply and the turn ends cancelled', async () => {
    const { connection } = await setup({}, { stallMs: 150 });
    const session = await connection.newSession({ cwd: process.cwd() });
    const stalled = nextEvent<AgentConnectionEvents, 'stalled'>(connection.events, 'stalled');
    const turn = session.prompt(
      script([
        {
          update: {
            sessionUpdate: 'tool_call',
            toolCallId: 'w1',
            title: 'Wait',
            kind: 'other',
            status: 'in_progress',
          },
        },
        {
          waitForCancel: true,
          then: [{ sessionUpdate: 'tool_call_update', toolCallId: 'w1', status: 'completed' }],
        },
      ]),
    );
    const stall = await stalled;
    expect(stall.silentMs).toBeGreaterThanOrEqual(150);
    expect(session.state.stalled).toBeDefined();
    await session.cancel();
    const cancelledState = session.state;
    expect((cancelledState.items.find((i) => i.kind === 'tool_call') as ToolCallItem).clientStatus).toBe(
      'cancelled',
    );
    expect((await turn).stopReason).toBe('cancelled');
    const tool = session.state.items.find((i) => i.kind === 'tool_call') as ToolCallItem;
    expect(tool.status).toBe('completed');
    expect(session.state.stalled).toBeUndefined();
  });

  it('answers a pending permission question "cancelled" when the turn is cancelled', async () => {
    const asked: string[] = [];
    const sessionRef: { current?: { cancel(): Promise<void> } } = {};
    const { connection } = await setup(
      {},
      {
        mode: 'ask',
        host: {
          askPermission: (ask) => {
            asked.push(ask.kind);
            void sessionRef.current?.cancel();
            return new Promise(() => {});
          },
        },
      },
    );
    const session = await connection.newSession({ cwd: process.cwd() });
    sessionRef.current = session;
    const options = [
      { optionId: 'y', name: 'Yes', kind: 'allow_once' },
      { optionId: 'n', name: 'No', kind: 'reject_once' },
    ];
    const result = await session.prompt(
      script([
        {
          request: 'session/request_permission',
          params: { toolCall: { toolCallId: 'e1', kind: 'edit', title: 'Edit' }, options },
        },
        { waitForCancel: true },
      ]),
    );
    expect(asked).toEqual(['edit']);
    expect(result.stopReason).toBe('cancelled');
    expect(reportedResults(session.state)).toEqual([{ result: { outcome: { outcome: 'cancelled' } } }]);
    expect(session.state.pendingPermissions).toEqual([]);
  });

  it('turns any -32000 into AUTH_REQUIRED with the methods explained, then authenticates', async () => {
    const authData = {
      authMethods: [
        { id: 'login', name: 'Log in with a browser' },
        { id: 'tui', name: 'Terminal login', type: 'terminal', args: ['--login'], env: { MODE: 'x' } },
        {
          id: 'key',
          name: 'API key',
          type: 'env_var',
          vars: [{ name: 'FAKE_API_KEY', label: 'Key' }],
          link: 'https://example.com/keys',
        },
        {
          id: 'setup',
          name: 'Setup',
          _meta: {
            'terminal-auth': { command: '/usr/bin/fake-setup', args: ['--setup'], label: 'Fake Setup' },
          },
        },
      ],
    };
    const { connection } = await setup({ requireAuth: true, authData });
    const failure = (await connection
      .newSession({ cwd: process.cwd() })
      .catch((e: unknown) => e)) as ClientError;
    expect(failure.code).toBe('AUTH_REQUIRED');
    const options = failure.details.authOptions as {
      id: string;
      action: string;
      instructions: string;
      run?: { args: string[] };
    }[];
    expect(options.map((o) => [o.id, o.action])).toEqual([
      ['login', 'authenticate'],
      ['tui', 'run-terminal'],
      ['key', 'user'],
      ['setup', 'run-terminal'],
    ]);
    expect(options[1]?.run?.args.slice(-1)).toEqual(['--login']);
    // A plain setting is shown, so the line can be pasted (secrets are not: auth-methods.test.ts).
    expect(options[1]?.instructions).toMatch(/^run `MODE=x \S+/);
    expect(options[2]?.instructions).toContain('FAKE_API_KEY');
    expect(options[3]?.instructions).toContain('/usr/bin/fake-setup --setup');
    await connection.authenticate('login');
    const session = await connection.newSession({ cwd: process.cwd() });
    expect((await session.prompt('hi')).stopReason).toBe('end_turn');
  });

  it('signs in with an API key the user typed, passed as _meta["api-key"]', async () => {
    const authData = {
      authMethods: [{ id: 'key', name: 'API key', _meta: { 'api-key': { provider: 'fake' } } }],
    };
    const { connection } = await setup({ requireAuth: true, requireApiKey: 'k-123', authData });
    const failure = (await connection
      .newSession({ cwd: process.cwd() })
      .catch((e: unknown) => e)) as ClientError;
    const [option] = failure.details.authOptions as { id: string; action: string; input?: unknown }[];
    expect(option).toMatchObject({ id: 'key', action: 'authenticate', input: { field: 'api-key' } });
    await expect(connection.authenticate('key', { apiKey: 'wrong' })).rejects.toThrow(/Invalid API key/);
    await connection.authenticate('key', { apiKey: 'k-123' });
    const session = await connection.newSession({ cwd: process.cwd() });
    expect((await session.prompt('hi')).stopReason).toBe('end_turn');
  });

  it('passes the key as { apiKey } to an agent that reads that shape (codex-acp), and reports a wrong key', async () => {
    const { connection } = await setup({ requireAuth: true, requireApiKey: 'k-9', apiKeyAsObject: true });
    await expect(connection.authenticate('key', { apiKey: 'wrong' })).rejects.toThrow(/Invalid API key/);
    await connection.authenticate('key', { apiKey: 'k-9' });
    const session = await connection.newSession({ cwd: process.cwd() });
    expect((await session.prompt('hi')).stopReason).toBe('end_turn');
  });

  it('passes on what a login prints while it waits, writes nothing back to it, and cancels it on the signal', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const inbound = join(dir, 'inbound.txt');
    const { connection } = await setup({
      requireAuth: true,
      loginPrints: 'https://login.example/abc',
      recordInbound: inbound,
    });
    const printed: string[] = [];
    let seenAll: () => void = () => undefined;
    const both = new Promise<void>((resolve) => (seenAll = resolve));
    connection.events.on('signInOutput', ({ text }) => {
      printed.push(text);
      const all = printed.join('\n');
      if (all.includes('https://login.example/abc') && all.includes('waiting for the browser')) seenAll();
    });
    const cancel = new AbortController();
    const signingIn = connection.authenticate('browser', {}, { signal: cancel.signal });
    await both;
    cancel.abort();
    await expect(signingIn).rejects.toThrow();
    // The login read stdin for its code: no -32700 for its text was written there.
    const written = await readFile(inbound, 'utf8');
    expect(written).toContain('"method":"authenticate"');
    expect(written).not.toContain('-32700');
    // Outside a sign-in, the same output is not sign-in output.
    const before = printed.length;
    await connection.newSession({ cwd: process.cwd() }).catch(() => undefined);
    expect(printed.length).toBe(before);
  });

  it('refuses an agent answering another protocol version, with a clear message', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const failure = (await AgentConnection.start({
      agent: fakeAgent({ protocolVersion: 3 }),
      policy: new PermissionPolicy({ mode: 'all' }),
      transcripts: new TranscriptStore(dir),
    }).catch((e: unknown) => e)) as ClientError;
    expect(failure.code).toBe('UNSUPPORTED_PROTOCOL_VERSION');
    expect(failure.message).toMatch(/version 3.*versions 1 and 2/);
  });

  it('reports an agent that dies before initialize with its stderr', async () => {
    const failure = (await AgentConnection.start({
      agent: fakeAgent({ exitImmediately: 2 }),
      policy: new PermissionPolicy({ mode: 'all' }),
    }).catch((e: unknown) => e)) as ClientError;
    expect(failure.code).toBe('AGENT_START_FAILED');
    expect(failure.message).toContain('fatal: cannot start');
  });

  it('gives up on an agent that never answers initialize', async () => {
    const failure = (await AgentConnection.start({
      agent: fakeAgent({ hangInit: true }),
      policy: new PermissionPolicy({ mode: 'all' }),
      timeouts: { initializeMs: 200 },
    }).catch((e: unknown) => e)) as ClientError;
    expect(failure.code).toBe('AGENT_START_FAILED');
    expect(failure.message).toContain('did not answer initialize');
  });

  it('handles a flood of updates into one message', async () => {
    const { connection } = await setup();
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.prompt(script([{ flood: 20_000 }]));
    const messages = session.state.items.filter((item) => item.kind === 'message' && item.role === 'agent');
    expect(messages).toHaveLength(1);
    expect(agentText(session.state).startsWith('x0 x1 x2 ')).toBe(true);
    expect(agentText(session.state).endsWith('x19999 ')).toBe(true);
    expect(session.state.updateCount).toBeGreaterThanOrEqual(20_000);
  });

  it('sets modes and config options', async () => {
    const { connection } = await setup();
    const session = await connection.newSession({ cwd: process.cwd() });
    await session.setMode('code');
    expect(session.state.modes?.currentModeId).toBe('code');
    const options = await session.setConfigOption('fast', true);
    expect(options[0]).toMatchObject({ id: 'fast', currentValue: true });
    expect(session.state.configOptions[0]).toMatchObject({ currentValue: true });
  });

  it('restarts within its budget only', async () => {
    const { connection } = await setup({}, { restartBudget: { max: 1 } });
    const pid = connection.pid;
    await connection.restart();
    expect(connection.pid).not.toBe(pid);
    expect(connection.running).toBe(true);
    const failure = (await connection.restart().catch((e: unknown) => e)) as ClientError;
    expect(failure.code).toBe('RESTART_BUDGET_EXHAUSTED');
  });
});
