/**
 * The v2 faces: every v2 method, notification and session/update variant of the corpus, sent by
 * one typed connection and received by the other over an in-memory byte pair, with outgoing
 * validation on; and the capability checks of v2's capability objects.
 */
import { describe, expect, it } from 'vitest';
import { createChannelPair } from '../../transport/memory.js';
import { METHOD_TABLE } from '../../schema/v2/methods.gen.js';
import type * as T from '../../schema/v2/types.gen.js';
import { METHOD_EXAMPLES_V2 } from '../../schema/test-support/corpus-v2.js';
import { AgentSideConnection, type AgentHandlers } from './agent-side.js';
import { ClientSideConnection, type ClientHandlers } from './client-side.js';

const ex = (method: string) => METHOD_EXAMPLES_V2[method]!;
const params = <P>(method: string, i = 0) => structuredClone(ex(method).params[i]) as P;
const result = <R>(method: string, i = 0) => structuredClone(ex(method).result![i]) as R;

const FULL_AGENT: T.InitializeResponse = result('initialize', 1);
const INFO = { name: 'test-client', version: '0.0.0' };

/** Both faces over a memory pair; `received` logs what each handler got, by method. */
function connect(agentOverrides: Partial<AgentHandlers> = {}, clientOverrides: Partial<ClientHandlers> = {}) {
  const [a, c] = createChannelPair();
  const received: Record<string, unknown[]> = {};
  const log =
    <R>(method: string, answer: () => R) =>
    (p: unknown) => {
      (received[method] ??= []).push(p);
      return answer();
    };
  // The corpus result of `method`, typed as whatever the handler must return.
  const answer = (method: string) => log(method, () => result<never>(method));
  const agentHandlers: AgentHandlers = {
    initialize: log('initialize', () => FULL_AGENT),
    login: answer('auth/login'),
    logout: answer('auth/logout'),
    newSession: answer('session/new'),
    listSessions: answer('session/list'),
    resumeSession: answer('session/resume'),
    closeSession: answer('session/close'),
    deleteSession: answer('session/delete'),
    setSessionConfigOption: answer('session/set_config_option'),
    promptSession: answer('session/prompt'),
    cancelSession: log('session/cancel', () => undefined),
    cancelToolCall: answer('tool_call/cancel'),
    cancelTerminal: answer('terminal/cancel'),
    ...agentOverrides,
  };
  const clientHandlers: ClientHandlers = {
    sessionUpdate: log('session/update', () => undefined),
    requestPermission: answer('session/request_permission'),
    createElicitation: answer('elicitation/create'),
    completeElicitation: log('elicitation/complete', () => undefined),
    ...clientOverrides,
  };
  const agent = new AgentSideConnection(a, agentHandlers, { validateOutgoing: true }).start();
  const client = new ClientSideConnection(c, clientHandlers, { validateOutgoing: true }).start();
  return { agent, client, received };
}

describe('v2 round trip', () => {
  it('every request and notification of the schema, both ways, arrives as sent', async () => {
    const { agent, client, received } = connect();
    const init = await client.initialize(params('initialize', 1));
    expect(init).toEqual(FULL_AGENT);
    expect(agent.clientCapabilities).toEqual(params<T.InitializeRequest>('initialize', 1).capabilities);
    expect(agent.clientInfo).toEqual({ name: 'zed', version: '0.200.0' });

    // Each request with the corpus example at the given index.
    const calls: Record<string, [number, (p: never) => Promise<unknown>]> = {
      'auth/login': [0, (p) => client.login(p)],
      'auth/logout': [0, (p) => client.logout(p)],
      'session/new': [1, (p) => client.newSession(p)],
      'session/list': [1, (p) => client.listSessions(p)],
      'session/resume': [1, (p) => client.resumeSession(p)],
      'session/close': [0, (p) => client.closeSession(p)],
      'session/delete': [0, (p) => client.deleteSession(p)],
      'session/set_config_option': [0, (p) => client.setSessionConfigOption(p)],
      'session/prompt': [1, (p) => client.promptSession(p)],
      'tool_call/cancel': [0, (p) => client.cancelToolCall(p)],
      'terminal/cancel': [0, (p) => client.cancelTerminal(p)],
      'session/request_permission': [1, (p) => agent.requestPermission(p)],
      'elicitation/create': [0, (p) => agent.createElicitation(p)],
    };
    for (const [method, [index, call]] of Object.entries(calls)) {
      expect(await call(params<never>(method, index)), method).toEqual(result(method));
      expect(received[method], method).toEqual([params(method, index)]);
    }
    // Every request of the schema but initialize was called above.
    const requests = [...METHOD_TABLE.values()].filter((m) => m.kind === 'request').map((m) => m.method);
    expect(new Set(Object.keys(calls))).toEqual(new Set(requests.filter((m) => m !== 'initialize')));

    for (const update of ex('session/update').params)
      await agent.sessionUpdate(structuredClone(update) as never);
    await agent.completeElicitation(params('elicitation/complete'));
    await client.cancelSession(params('session/cancel'));
    // A round trip behind them: the notifications have been handled.
    await client.listSessions({});
    expect(received['session/update']).toEqual(ex('session/update').params);
    expect(received['elicitation/complete']).toEqual([params('elicitation/complete')]);
    expect(received['session/cancel']).toEqual([params('session/cancel')]);
  });

  it('a tool call or terminal without a cancel handler is "unknown or not cancellable" (-32602)', async () => {
    const { client } = connect({ cancelToolCall: undefined, cancelTerminal: undefined });
    await client.initialize(params('initialize'));
    await expect(client.cancelToolCall({ sessionId: 's', toolCallId: 'call_9' })).rejects.toMatchObject({
      code: -32602,
      data: { toolCallId: 'call_9' },
    });
    await expect(client.cancelTerminal({ sessionId: 's', terminalId: 't9' })).rejects.toMatchObject({
      code: -32602,
      data: { terminalId: 't9' },
    });
  });

  it('a client answered in another version rejects with UNSUPPORTED_PROTOCOL_VERSION', async () => {
    const { client } = connect({ initialize: () => ({ protocolVersion: 3, info: INFO }) });
    await expect(client.initialize({ protocolVersion: 2, info: INFO })).rejects.toMatchObject({
      code: 'UNSUPPORTED_PROTOCOL_VERSION',
    });
  });
});

describe('v2 capability checks', () => {
  it('without capabilities.session no session method is sent', async () => {
    const { client, received } = connect({ initialize: () => ({ protocolVersion: 2, info: INFO }) });
    await client.initialize({ protocolVersion: 2, info: INFO });
    for (const call of [
      () => client.newSession({ cwd: '/w' }),
      () => client.listSessions({}),
      () => client.promptSession({ sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] }),
      () => client.cancelSession({ sessionId: 's' }),
    ]) {
      await expect(call()).rejects.toMatchObject({
        code: 'CAPABILITY_NOT_SUPPORTED',
        details: { capability: 'capabilities.session' },
      });
    }
    await expect(client.login({ methodId: 'x' })).rejects.toMatchObject({
      details: { capability: 'authMethods' },
    });
    expect(received['session/new']).toBeUndefined();
  });

  it('baseline sessions: delete, stdio MCP, additional directories and rich prompts need their own', async () => {
    const { client } = connect({
      initialize: () => ({ protocolVersion: 2, info: INFO, capabilities: { session: {} } }),
    });
    await client.initialize({ protocolVersion: 2, info: INFO });
    await expect(client.newSession({ cwd: '/w' })).resolves.toMatchObject({ sessionId: expect.any(String) });
    const refused = (capability: string) => ({ code: 'CAPABILITY_NOT_SUPPORTED', details: { capability } });
    await expect(client.deleteSession({ sessionId: 's' })).rejects.toMatchObject(
      refused('capabilities.session.delete'),
    );
    await expect(
      client.newSession({ cwd: '/w', mcpServers: [{ type: 'stdio', name: 'fs', command: '/bin/fs' }] }),
    ).rejects.toMatchObject(refused('capabilities.session.mcp.stdio'));
    await expect(client.newSession({ cwd: '/w', additionalDirectories: ['/x'] })).rejects.toMatchObject(
      refused('capabilities.session.additionalDirectories'),
    );
    await expect(
      client.promptSession({ sessionId: 's', prompt: [{ type: 'image', data: 'x', mimeType: 'image/png' }] }),
    ).rejects.toMatchObject(refused('capabilities.session.prompt.image'));
  });

  it('the agent asks for elicitation only in a mode the client advertised; notices need nothing', async () => {
    const { agent, client, received } = connect();
    await client.initialize({ protocolVersion: 2, info: INFO, capabilities: { elicitation: { form: {} } } });
    await expect(agent.createElicitation(params('elicitation/create', 1))).rejects.toMatchObject({
      details: { capability: 'capabilities.elicitation.url' },
    });
    await agent.sessionUpdate({
      sessionId: 's',
      update: { sessionUpdate: 'notice', severity: 'info', title: 'Heads up' },
    });
    await client.listSessions({});
    expect(received['session/update']).toHaveLength(1);
  });
});
