/**
 * The agent side's `initialize` gate (reliability case B4): requests before `initialize` are
 * answered -32600 without reaching their handlers; requests pipelined behind it wait for it.
 */
import { describe, expect, it } from 'vitest';
import { createChannelPair } from '../transport/memory.js';
import { RawPeer, deferred } from '../jsonrpc/test-support/raw-peer.js';
import type * as T from '../schema/types.gen.js';
import { AgentSideConnection, NOT_INITIALIZED_MESSAGE, type AgentHandlers } from './agent-side.js';
import { PROTOCOL_VERSION } from './client-side.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  method: 'initialize',
  params: { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} },
};
const NEW_SESSION = { jsonrpc: '2.0', method: 'session/new', params: { cwd: '/w', mcpServers: [] } };

/** An agent over a memory pair, a raw client, and a log of the handlers that ran. */
function setup(overrides: Partial<AgentHandlers> = {}) {
  const [agentSide, clientSide] = createChannelPair();
  const calls: string[] = [];
  const handlers: AgentHandlers = {
    initialize: () => {
      calls.push('initialize');
      return { protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} };
    },
    newSession: () => {
      calls.push('session/new');
      return { sessionId: 's1' };
    },
    promptSession: () => ({ stopReason: 'end_turn' }),
    cancelSession: () => void calls.push('session/cancel'),
    ...overrides,
  };
  const agent = new AgentSideConnection(agentSide, handlers);
  agent.onExtRequest('_test/echo', (params) => {
    calls.push('_test/echo');
    return params;
  });
  agent.start();
  return { agent, peer: new RawPeer(clientSide), calls };
}

describe('the initialize gate', () => {
  it('answers requests before initialize with -32600 and runs no handler; afterwards all works', async () => {
    const { peer, calls } = setup();
    const early = await peer.exchange({ ...NEW_SESSION, id: 1 });
    expect(early).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32600, message: NOT_INITIALIZED_MESSAGE, data: { method: 'session/new' } },
      },
    ]);
    const ext = await peer.exchange({ jsonrpc: '2.0', id: 2, method: '_test/echo', params: {} });
    expect(ext[0]).toMatchObject({ id: 2, error: { code: -32600 } });
    // Invalid params are not looked at before initialize either.
    const invalid = await peer.exchange({ jsonrpc: '2.0', id: 3, method: 'session/new', params: { cwd: 7 } });
    expect(invalid[0]).toMatchObject({ id: 3, error: { code: -32600 } });
    peer.send({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's1' } });
    expect(calls).toEqual([]);

    const init = await peer.exchange({ ...INITIALIZE, id: 4 });
    expect(init[0]).toMatchObject({ id: 4, result: { protocolVersion: PROTOCOL_VERSION } });
    const created = await peer.exchange({ ...NEW_SESSION, id: 5 });
    expect(created[0]).toMatchObject({ id: 5, result: { sessionId: 's1' } });
    peer.send({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's1' } });
    await peer.exchange({ jsonrpc: '2.0', id: 6, method: '_test/echo', params: { a: 1 } });
    expect(calls).toEqual(['initialize', 'session/new', 'session/cancel', '_test/echo']);
  });

  it('holds requests pipelined behind a slow initialize until it answers', async () => {
    const release = deferred();
    const { peer, calls } = setup({
      initialize: async () => {
        calls.push('initialize started');
        await release.promise;
        calls.push('initialize done');
        return { protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} };
      },
    });
    peer.send({ ...INITIALIZE, id: 1 });
    peer.send({ ...NEW_SESSION, id: 2 });
    // The answer to a later unknown request (-32601) proves both frames were dispatched.
    peer.send({ jsonrpc: '2.0', id: 'probe', method: '_unknown/probe' });
    expect((await peer.nextFrame()).id).toBe('probe');
    expect(calls).toEqual(['initialize started']);
    release.resolve();
    expect(await peer.nextFrame()).toMatchObject({ id: 1, result: { protocolVersion: PROTOCOL_VERSION } });
    expect(await peer.nextFrame()).toMatchObject({ id: 2, result: { sessionId: 's1' } });
    expect(calls).toEqual(['initialize started', 'initialize done', 'session/new']);
  });

  it('refuses requests pipelined behind an initialize that failed, or had invalid params', async () => {
    const { peer, calls } = setup({
      initialize: async () => {
        calls.push('initialize');
        throw new Error('broken agent');
      },
    });
    peer.send({ ...INITIALIZE, id: 1 });
    peer.send({ ...NEW_SESSION, id: 2 });
    expect(await peer.nextFrame()).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(await peer.nextFrame()).toMatchObject({
      id: 2,
      error: { code: -32600, message: NOT_INITIALIZED_MESSAGE },
    });

    const badParams = await peer.exchange({ jsonrpc: '2.0', id: 3, method: 'initialize', params: {} });
    expect(badParams[0]).toMatchObject({ id: 3, error: { code: -32602 } });
    const after = await peer.exchange({ ...NEW_SESSION, id: 4 });
    expect(after[0]).toMatchObject({ id: 4, error: { code: -32600 } });
    expect(calls).toEqual(['initialize']);
  });

  it('lets a client initialize again', async () => {
    const seen: T.InitializeRequest[] = [];
    const { peer } = setup({
      initialize: (params) => {
        seen.push(params);
        return { protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} };
      },
    });
    await peer.exchange({ ...INITIALIZE, id: 1 });
    const again = await peer.exchange({ ...INITIALIZE, id: 2 });
    expect(again[0]).toMatchObject({ id: 2, result: {} });
    expect(seen).toHaveLength(2);
  });
});
