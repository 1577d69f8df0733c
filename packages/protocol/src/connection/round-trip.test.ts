/**
 * Every stable v1 method, notification and session/update variant, sent by one typed connection
 * and received by the other over an in-memory byte pair, with outgoing validation on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deferred } from '../jsonrpc/test-support/raw-peer.js';
import { createChannelPair } from '../transport/memory.js';
import { AGENT_METHODS, CLIENT_METHODS, METHOD_TABLE } from '../schema/methods.gen.js';
import type * as T from '../schema/types.gen.js';
import { AgentSideConnection, type AgentHandlers } from './agent-side.js';
import { ClientSideConnection, PROTOCOL_VERSION, type ClientHandlers } from './client-side.js';

const sessionId = 'sess-1';
const text = (t: string): T.ContentBlock => ({ type: 'text', text: t });

/** One example params/result per request, and params per notification. */
const requests: Record<string, { params: unknown; result: unknown }> = {
  initialize: {
    params: {
      protocolVersion: 1,
      clientCapabilities: {
        fs: { readTextFile: true, writeTextFile: true },
        terminal: true,
        auth: { terminal: true },
        elicitation: { form: {}, url: {} },
        session: { notices: {}, compaction: {}, configOptions: { boolean: {} } },
        _meta: { terminal_output: true },
      },
      clientInfo: { name: 'acp-kit-test', version: '0.0.0', title: 'Test' },
    },
    result: {
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: true, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
        sessionCapabilities: { list: {}, delete: {}, resume: {}, close: {}, additionalDirectories: {} },
        auth: { logout: {} },
      },
      authMethods: [
        { id: 'login', name: 'Log in', description: 'Opens a browser' },
        { id: 'tty', name: 'Terminal login', type: 'terminal', args: ['--login'], env: { A: '1' } },
      ],
      agentInfo: { name: 'test-agent', version: '1.2.3' },
    },
  },
  authenticate: { params: { methodId: 'login' }, result: {} },
  logout: { params: {}, result: {} },
  'session/new': {
    params: {
      cwd: '/work',
      additionalDirectories: ['/other'],
      mcpServers: [
        {
          name: 'fs',
          command: '/usr/bin/mcp-fs',
          args: ['--root', '/work'],
          env: [{ name: 'X', value: '1' }],
        },
        { type: 'http', name: 'web', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'A', value: 'b' }] },
        { type: 'sse', name: 'old', url: 'http://127.0.0.1:9/sse', headers: [] },
      ],
    },
    result: {
      sessionId,
      modes: {
        currentModeId: 'ask',
        availableModes: [
          { id: 'ask', name: 'Ask', description: 'Asks before edits' },
          { id: 'plan', name: 'Plan' },
        ],
      },
      configOptions: [
        {
          type: 'select',
          id: 'model',
          name: 'Model',
          category: 'model',
          currentValue: 'small',
          options: [
            { value: 'small', name: 'Small' },
            { value: 'large', name: 'Large', description: 'Slower' },
          ],
        },
        {
          type: 'select',
          id: 'effort',
          name: 'Effort',
          category: 'thought_level',
          currentValue: 'low',
          options: [{ group: 'g', name: 'Group', options: [{ value: 'low', name: 'Low' }] }],
        },
        { type: 'boolean', id: 'web', name: 'Web access', currentValue: false },
      ],
    },
  },
  'session/load': { params: { sessionId, cwd: '/work', mcpServers: [] }, result: {} },
  'session/list': {
    params: { cwd: '/work', cursor: 'c1' },
    result: {
      sessions: [{ sessionId, cwd: '/work', title: 'Fix the bug', updatedAt: '2026-11-22T10:00:00Z' }],
      nextCursor: 'c2',
    },
  },
  'session/resume': { params: { sessionId, cwd: '/work', mcpServers: [] }, result: {} },
  'session/close': { params: { sessionId }, result: {} },
  'session/delete': { params: { sessionId }, result: {} },
  'session/set_mode': { params: { sessionId, modeId: 'plan' }, result: {} },
  'session/set_config_option': {
    params: { sessionId, configId: 'model', value: 'large' },
    result: {
      configOptions: [
        {
          type: 'select',
          id: 'model',
          name: 'Model',
          currentValue: 'large',
          options: [{ value: 'large', name: 'Large' }],
        },
      ],
    },
  },
  'session/prompt': {
    params: {
      sessionId,
      prompt: [
        text('Explain @main.ts'),
        { type: 'resource_link', uri: 'file:///work/main.ts', name: 'main.ts', mimeType: 'text/typescript' },
        {
          type: 'resource',
          resource: { uri: 'file:///work/a.ts', text: 'let a = 1;', mimeType: 'text/typescript' },
        },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      ],
    },
    result: { stopReason: 'end_turn' },
  },
  'session/request_permission': {
    params: {
      sessionId,
      toolCall: { toolCallId: 'tc1', title: 'Edit main.ts', kind: 'edit', status: 'pending' },
      options: [
        { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        { optionId: 'never', name: 'Never', kind: 'reject_always' },
      ],
    },
    result: { outcome: { outcome: 'selected', optionId: 'allow' } },
  },
  'fs/read_text_file': {
    params: { sessionId, path: '/work/main.ts', line: 3, limit: 10 },
    result: { content: 'line 3\n' },
  },
  'fs/write_text_file': { params: { sessionId, path: '/work/new.ts', content: 'x\n' }, result: {} },
  'terminal/create': {
    params: {
      sessionId,
      command: 'npm',
      args: ['test'],
      env: [{ name: 'CI', value: '1' }],
      cwd: '/work',
      outputByteLimit: 4096,
    },
    result: { terminalId: 'term-1' },
  },
  'terminal/output': {
    params: { sessionId, terminalId: 'term-1' },
    result: { output: 'ok\n', truncated: false, exitStatus: { exitCode: 0, signal: null } },
  },
  'terminal/wait_for_exit': { params: { sessionId, terminalId: 'term-1' }, result: { exitCode: 0 } },
  'terminal/kill': { params: { sessionId, terminalId: 'term-1' }, result: {} },
  'terminal/release': { params: { sessionId, terminalId: 'term-1' }, result: {} },
  'elicitation/create': {
    params: {
      sessionId,
      mode: 'form',
      message: 'Which branch?',
      requestedSchema: {
        type: 'object',
        properties: { branch: { type: 'string', title: 'Branch' } },
        required: ['branch'],
      },
    },
    result: { action: 'accept', content: { branch: 'main' } },
  },
};

const updates: T.SessionUpdate[] = [
  { sessionUpdate: 'user_message_chunk', content: text('hello'), messageId: 'u1' },
  { sessionUpdate: 'agent_message_chunk', content: text('Hi **there**'), messageId: 'm1' },
  { sessionUpdate: 'agent_thought_chunk', content: text('thinking'), messageId: 't1' },
  {
    sessionUpdate: 'tool_call',
    toolCallId: 'tc1',
    title: 'Read main.ts',
    kind: 'read',
    status: 'pending',
    locations: [{ path: '/work/main.ts', line: 1 }],
    rawInput: { path: 'main.ts' },
  },
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'tc1',
    status: 'completed',
    content: [
      { type: 'content', content: text('done') },
      { type: 'diff', path: '/work/main.ts', oldText: 'a', newText: 'b' },
      { type: 'diff', path: '/work/new.ts', oldText: null, newText: 'new' },
      { type: 'terminal', terminalId: 'term-1' },
    ],
    rawOutput: { ok: true },
  },
  {
    sessionUpdate: 'plan',
    entries: [
      { content: 'Read', priority: 'high', status: 'completed' },
      { content: 'Edit', priority: 'medium', status: 'in_progress' },
      { content: 'Test', priority: 'low', status: 'pending' },
    ],
  },
  {
    sessionUpdate: 'available_commands_update',
    availableCommands: [
      { name: 'help', description: 'Show help' },
      { name: 'plan', description: 'Plan first', input: { hint: 'what to plan' } },
    ],
  },
  { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
  {
    sessionUpdate: 'config_option_update',
    configOptions: [{ type: 'boolean', id: 'web', name: 'Web', currentValue: true }],
  },
  { sessionUpdate: 'session_info_update', title: 'Fix the bug', updatedAt: '2026-11-22T10:00:00Z' },
  { sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.01, currency: 'USD' } },
  { sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited; retrying' },
  { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', summary: [text('short')] },
  { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('summary') },
];

let open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

function connect(agentHandlers: Partial<AgentHandlers>, clientHandlers: Partial<ClientHandlers>) {
  const [a, b] = createChannelPair();
  const agent = new AgentSideConnection(
    a,
    {
      initialize: () => requests.initialize!.result as T.InitializeResponse,
      newSession: () => ({ sessionId }),
      promptSession: () => ({ stopReason: 'end_turn' }),
      cancelSession: () => undefined,
      ...agentHandlers,
    },
    { validateOutgoing: true },
  ).start();
  const client = new ClientSideConnection(
    b,
    {
      sessionUpdate: () => undefined,
      requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
      ...clientHandlers,
    },
    { validateOutgoing: true },
  ).start();
  open.push(agent, client);
  return { agent, client };
}

const agentCalls: Record<string, keyof ClientSideConnection> = {
  initialize: 'initialize',
  authenticate: 'authenticate',
  logout: 'logout',
  'session/new': 'newSession',
  'session/load': 'loadSession',
  'session/list': 'listSessions',
  'session/resume': 'resumeSession',
  'session/close': 'closeSession',
  'session/delete': 'deleteSession',
  'session/set_mode': 'setSessionMode',
  'session/set_config_option': 'setSessionConfigOption',
  'session/prompt': 'promptSession',
};
const agentHandlerNames: Record<string, keyof AgentHandlers> = {
  initialize: 'initialize',
  authenticate: 'authenticate',
  logout: 'logout',
  'session/new': 'newSession',
  'session/load': 'loadSession',
  'session/list': 'listSessions',
  'session/resume': 'resumeSession',
  'session/close': 'closeSession',
  'session/delete': 'deleteSession',
  'session/set_mode': 'setSessionMode',
  'session/set_config_option': 'setSessionConfigOption',
  'session/prompt': 'promptSession',
};
const clientCalls: Record<string, keyof AgentSideConnection> = {
  'session/request_permission': 'requestPermission',
  'fs/read_text_file': 'readTextFile',
  'fs/write_text_file': 'writeTextFile',
  'terminal/output': 'terminalOutput',
  'terminal/wait_for_exit': 'waitForTerminalExit',
  'terminal/kill': 'killTerminal',
  'terminal/release': 'releaseTerminal',
  'elicitation/create': 'createElicitation',
};
const clientHandlerNames: Record<string, keyof ClientHandlers> = {
  'session/request_permission': 'requestPermission',
  'fs/read_text_file': 'readTextFile',
  'fs/write_text_file': 'writeTextFile',
  'terminal/create': 'createTerminal',
  'terminal/output': 'terminalOutput',
  'terminal/wait_for_exit': 'waitForTerminalExit',
  'terminal/kill': 'killTerminal',
  'terminal/release': 'releaseTerminal',
  'elicitation/create': 'createElicitation',
};

describe('round trip of every stable method', () => {
  it('covers every request of the method table', () => {
    const all = [...METHOD_TABLE.values()].filter((m) => m.kind === 'request').map((m) => m.method);
    expect(all.sort()).toEqual(Object.keys(requests).sort());
    expect(Object.values(AGENT_METHODS)).toContain('session/prompt');
    expect(Object.values(CLIENT_METHODS)).toContain('session/update');
  });

  for (const [method, call] of Object.entries(agentCalls)) {
    it(`client → agent ${method}`, async () => {
      const example = requests[method]!;
      let received: unknown;
      const { client } = connect(
        {
          [agentHandlerNames[method]!]: (params: unknown) => {
            received = params;
            return structuredClone(example.result);
          },
        },
        {},
      );
      if (method !== 'initialize')
        await client.initialize(requests.initialize!.params as T.InitializeRequest);
      const fn = client[call] as (p: unknown) => Promise<unknown>;
      const result = await fn.call(client, structuredClone(example.params));
      expect(received).toEqual(example.params);
      expect(result).toEqual(example.result);
    });
  }

  for (const [method, handlerName] of Object.entries(clientHandlerNames)) {
    it(`agent → client ${method}`, async () => {
      const example = requests[method]!;
      let received: unknown;
      const { agent, client } = connect(
        {},
        {
          [handlerName]: (params: unknown) => {
            received = params;
            return structuredClone(example.result);
          },
        },
      );
      await client.initialize(requests.initialize!.params as T.InitializeRequest);
      let result: unknown;
      if (method === 'terminal/create') {
        const handle = await agent.createTerminal(structuredClone(example.params) as T.CreateTerminalRequest);
        expect(handle.id).toBe('term-1');
        result = { terminalId: handle.id };
      } else {
        const fn = agent[clientCalls[method]!] as (p: unknown) => Promise<unknown>;
        result = await fn.call(agent, structuredClone(example.params));
      }
      expect(received).toEqual(example.params);
      expect(result).toEqual(example.result);
    });
  }

  it('notifications: session/cancel, elicitation/complete', async () => {
    const cancelled: unknown[] = [];
    const completed: unknown[] = [];
    const { agent, client } = connect(
      { cancelSession: (p) => void cancelled.push(p) },
      { completeElicitation: (p) => void completed.push(p) },
    );
    await client.initialize(requests.initialize!.params as T.InitializeRequest);
    await client.cancelSession({ sessionId });
    await agent.completeElicitation({ elicitationId: 'e1' });
    // A request after each notification proves they were handled first (wire order).
    await client.setSessionMode({ sessionId, modeId: 'x' }).catch(() => undefined);
    await agent.requestPermission(
      requests['session/request_permission']!.params as T.RequestPermissionRequest,
    );
    expect(cancelled).toEqual([{ sessionId }]);
    expect(completed).toEqual([{ elicitationId: 'e1' }]);
  });

  it('every session/update variant arrives intact and in order', async () => {
    const received: unknown[] = [];
    const { agent, client } = connect(
      {
        promptSession: async ({ sessionId: id }) => {
          for (const update of updates)
            await agent.sessionUpdate({ sessionId: id, update: structuredClone(update) });
          return { stopReason: 'end_turn' };
        },
      },
      { sessionUpdate: ({ update }) => void received.push(update) },
    );
    await client.initialize(requests.initialize!.params as T.InitializeRequest);
    const res = await client.promptSession({ sessionId, prompt: [text('go')] });
    expect(res.stopReason).toBe('end_turn');
    expect(received).toEqual(updates);
  });
});

describe('capabilities', () => {
  it('refuses locally what the peer did not advertise', async () => {
    const { agent, client } = connect({ initialize: () => ({ protocolVersion: PROTOCOL_VERSION }) }, {});
    await client.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    await expect(agent.readTextFile({ sessionId, path: '/x' })).rejects.toMatchObject({
      code: 'CAPABILITY_NOT_SUPPORTED',
    });
    await expect(agent.createTerminal({ sessionId, command: 'ls' })).rejects.toMatchObject({
      code: 'CAPABILITY_NOT_SUPPORTED',
    });
    await expect(
      agent.sessionUpdate({ sessionId, update: { sessionUpdate: 'notice', severity: 'info', title: 'x' } }),
    ).rejects.toThrow(/session\.notices/);
    await expect(client.loadSession({ sessionId, cwd: '/', mcpServers: [] })).rejects.toMatchObject({
      code: 'CAPABILITY_NOT_SUPPORTED',
    });
    await expect(
      client.promptSession({ sessionId, prompt: [{ type: 'image', data: 'x', mimeType: 'image/png' }] }),
    ).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
  });

  it('answers -32601 for an optional method the agent did not implement', async () => {
    const { client } = connect({}, {});
    await client.initialize(requests.initialize!.params as T.InitializeRequest);
    await expect(client.authenticate({ methodId: 'x' })).rejects.toMatchObject({ code: -32601 });
  });

  it('rejects a version it does not speak', async () => {
    const { client } = connect({ initialize: () => ({ protocolVersion: 2 }) }, {});
    await expect(client.initialize({ protocolVersion: 1 })).rejects.toMatchObject({
      code: 'UNSUPPORTED_PROTOCOL_VERSION',
    });
  });
});

describe("a request handler's context", () => {
  it('names the request and aborts its signal when the client gives up', async () => {
    const started = deferred<{ requestId: unknown; signal: AbortSignal }>();
    const { client } = connect(
      {
        setSessionMode: (_params, ctx) => {
          started.resolve({ requestId: ctx.requestId, signal: ctx.signal });
          return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({})));
        },
      },
      {},
    );
    await client.initialize(requests.initialize!.params as T.InitializeRequest);
    const controller = new AbortController();
    const call = client.setSessionMode({ sessionId, modeId: 'code' }, { signal: controller.signal });
    const ctx = await started.promise;
    // initialize was request 1.
    expect(ctx.requestId).toBe(2);
    expect(ctx.signal.aborted).toBe(false);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_ABORTED' });
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve());
    });
    expect(ctx.signal.reason).toMatchObject({ code: -32800 });
  });
});

describe('validation of what arrives', () => {
  it('answers -32602 naming the path of an invalid required field', async () => {
    const { client } = connect({}, {});
    await client.initialize(requests.initialize!.params as T.InitializeRequest);
    const err = await client.rpc
      .request('session/prompt', { sessionId, prompt: [{ type: 'text' }] })
      .catch((e) => e);
    expect(err).toMatchObject({ code: -32602, data: { path: 'params.prompt[0].text' } });
    expect(JSON.stringify((err as { data: unknown }).data).length).toBeLessThan(1024);
  });

  it('keeps an unknown update variant, marked, and reports it', async () => {
    const reports: unknown[] = [];
    const received: T.SessionUpdate[] = [];
    const [a, b] = createChannelPair();
    const agent = new AgentSideConnection(a, {
      initialize: () => ({ protocolVersion: 1 }),
      newSession: () => ({ sessionId }),
      promptSession: async () => {
        await agent.rpc.notify('session/update', {
          sessionId,
          update: { sessionUpdate: 'future_thing', x: 1 },
        });
        return { stopReason: 'end_turn' };
      },
      cancelSession: () => undefined,
    }).start();
    const client = new ClientSideConnection(
      b,
      {
        sessionUpdate: ({ update }) => void received.push(update),
        requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
      },
      { onValidation: (r) => reports.push(r) },
    ).start();
    open.push(agent, client);
    await client.initialize({ protocolVersion: 1, clientCapabilities: {} });
    await client.promptSession({ sessionId, prompt: [] });
    const { isUnknownVariant } = await import('../schema/runtime.js');
    expect(received).toHaveLength(1);
    expect(isUnknownVariant(received[0])).toBe(true);
    expect(received[0]).toMatchObject({ sessionUpdate: 'future_thing', x: 1 });
    expect(reports).toMatchObject([{ method: 'session/update', diagnostics: [{ kind: 'unknown-variant' }] }]);
  });

  it('accepts null where the schema now says {}', async () => {
    const [a, b] = createChannelPair();
    const agent = new AgentSideConnection(a, {
      initialize: () => ({ protocolVersion: 1 }),
      newSession: () => ({ sessionId }),
      promptSession: () => ({ stopReason: 'end_turn' }),
      cancelSession: () => undefined,
    });
    agent.rpc.onRequest('session/set_mode', () => null);
    agent.start();
    const client = new ClientSideConnection(b, {
      sessionUpdate: () => undefined,
      requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
    }).start();
    open.push(agent, client);
    await expect(client.setSessionMode({ sessionId, modeId: 'a' })).resolves.toEqual({});
  });

  it('rejects an invalid result with INVALID_RESPONSE', async () => {
    const { agent, client } = connect({}, {});
    agent.rpc.onRequest('session/new', () => ({ sessionId: 42 }));
    await client.initialize(requests.initialize!.params as T.InitializeRequest);
    await expect(client.newSession({ cwd: '/', mcpServers: [] })).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      details: { path: 'result.sessionId' },
    });
  });
});
