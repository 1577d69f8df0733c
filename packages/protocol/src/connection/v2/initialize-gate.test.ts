/**
 * The v2 agent face's `initialize`: the gate it shares with v1, and v2's own rules (repeats only
 * before the first other request, one at a time, for v2 or later; request ids strings or
 * integers; -32022 below version 2; a newer version read as v2).
 */
import { describe, expect, it } from 'vitest';
import { RawPeer, deferred } from '../../jsonrpc/test-support/raw-peer.js';
import type * as T from '../../schema/v2/types.gen.js';
import { createChannelPair } from '../../transport/memory.js';
import { NOT_INITIALIZED_MESSAGE } from '../initialize-gate.js';
import { AgentSideConnection, type AgentHandlers } from './agent-side.js';

const INFO = { name: 'raw-client', version: '1' };
const init = (id: number | string, protocolVersion: number, extra: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, info: INFO, ...extra },
});
const newSession = (id: number) => ({ jsonrpc: '2.0', id, method: 'session/new', params: { cwd: '/w' } });

function setup(overrides: Partial<AgentHandlers> = {}) {
  const [agentSide, clientSide] = createChannelPair();
  const seen: T.InitializeRequest[] = [];
  const calls: string[] = [];
  const agent = new AgentSideConnection(agentSide, {
    initialize: (params) => {
      seen.push(params);
      return { protocolVersion: 2, info: { name: 'agent', version: '1' }, capabilities: { session: {} } };
    },
    newSession: () => {
      calls.push('session/new');
      return { sessionId: 's1' };
    },
    promptSession: () => ({ messageId: 'm1' }),
    cancelSession: () => void calls.push('session/cancel'),
    ...overrides,
  }).start();
  return { agent, peer: new RawPeer(clientSide), seen, calls };
}

describe('the v2 initialize gate', () => {
  it('refuses requests and drops notifications before initialize, like v1', async () => {
    const { peer, calls } = setup();
    expect(await peer.exchange(newSession(1))).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32600, message: NOT_INITIALIZED_MESSAGE, data: { method: 'session/new' } },
      },
    ]);
    peer.send({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's1' } });
    expect((await peer.exchange(init(2, 2)))[0]).toMatchObject({ id: 2, result: { protocolVersion: 2 } });
    expect((await peer.exchange(newSession(3)))[0]).toMatchObject({ id: 3, result: { sessionId: 's1' } });
    expect(calls).toEqual(['session/new']);
  });

  it('answers a request for version 1 or 0 with -32022 and its typed data, and stays open for v2', async () => {
    const { peer, seen } = setup();
    expect(await peer.exchange(init(1, 1, { clientCapabilities: {} }))).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32022,
          message: 'Unsupported protocol version',
          data: { requested: 1, supported: [2] },
        },
      },
    ]);
    expect((await peer.exchange(init(2, 0)))[0]).toMatchObject({ error: { code: -32022 } });
    expect((await peer.exchange(init(3, 2)))[0]).toMatchObject({ id: 3, result: { protocolVersion: 2 } });
    expect(seen).toHaveLength(1);
  });

  it('reads an initialize for a newer version as v2, standing in for an info it cannot read', async () => {
    const { peer, seen } = setup();
    const answer = await peer.exchange(init(1, 7, { info: { label: 'from the future' }, capabilities: {} }));
    expect(answer[0]).toMatchObject({ id: 1, result: { protocolVersion: 2 } });
    expect(seen[0]).toMatchObject({ protocolVersion: 2, info: { name: 'unknown', version: 'unknown' } });
    // For exactly v2, a bad info is an error.
    const { peer: strict } = setup();
    const bad = await strict.exchange(init(1, 2, { info: { label: 'x' } }));
    expect(bad[0]).toMatchObject({ error: { code: -32602, data: { path: 'params.info.name' } } });
  });

  it('a repeat before any other request is accepted, and the latest one is authoritative', async () => {
    const { agent, peer, seen } = setup();
    await peer.exchange(init(1, 2, { capabilities: { elicitation: { form: {} } } }));
    await peer.exchange(init(2, 2, { capabilities: { elicitation: { url: {} } } }));
    expect(seen).toHaveLength(2);
    expect(agent.clientCapabilities).toEqual({ elicitation: { url: {} } });
  });

  it('refuses a repeat after another request, or asking for a lower version', async () => {
    const { peer, seen } = setup();
    await peer.exchange(init(1, 2));
    expect((await peer.exchange(init(2, 1)))[0]).toMatchObject({
      id: 2,
      error: { code: -32600, message: 'a repeated initialize must request protocol version 2 or later' },
    });
    await peer.exchange(newSession(3));
    expect((await peer.exchange(init(4, 2)))[0]).toMatchObject({
      id: 4,
      error: { code: -32600, message: 'initialize must not be repeated after other requests' },
    });
    expect(seen).toHaveLength(1);
  });

  it('refuses a second initialize while one is running; a failed repeat keeps the previous one', async () => {
    const release = deferred();
    let fail = false;
    const { agent, peer } = setup({
      initialize: async (params) => {
        await release.promise;
        if (fail) throw new Error('broken');
        return { protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: params.capabilities };
      },
    });
    peer.send(init(1, 2, { capabilities: { elicitation: { form: {} } } }));
    expect((await peer.exchange(init(2, 2)))[0]).toMatchObject({
      id: 2,
      error: { code: -32600, message: 'initialize is already in progress' },
    });
    release.resolve();
    expect(await peer.nextFrame()).toMatchObject({ id: 1, result: {} });
    fail = true;
    peer.send(init(3, 2, { capabilities: {} }));
    expect(await peer.nextFrame()).toMatchObject({ id: 3, error: { code: -32603 } });
    expect(agent.clientCapabilities).toEqual({ elicitation: { form: {} } });
    expect((await peer.exchange(newSession(4)))[0]).toMatchObject({ result: { sessionId: 's1' } });
  });

  it('holds a request pipelined behind a slow initialize, as v1 does', async () => {
    const release = deferred();
    const { peer, calls } = setup({
      initialize: async () => {
        await release.promise;
        return { protocolVersion: 2, info: { name: 'a', version: '1' } };
      },
    });
    peer.send(init(1, 2));
    peer.send(newSession(2));
    peer.send({ jsonrpc: '2.0', id: 'probe', method: '_unknown/probe' });
    expect((await peer.nextFrame()).id).toBe('probe');
    expect(calls).toEqual([]);
    release.resolve();
    expect(await peer.nextFrame()).toMatchObject({ id: 1, result: { protocolVersion: 2 } });
    expect(await peer.nextFrame()).toMatchObject({ id: 2, result: { sessionId: 's1' } });
  });

  it('refuses a request whose id is a fractional number (v2 ids are strings or integers)', async () => {
    const { peer } = setup();
    expect((await peer.exchange(init(1.5, 2)))[0]).toMatchObject({
      id: 1.5,
      error: { code: -32600, message: 'ACP v2 request ids must be strings or integers' },
    });
    expect((await peer.exchange(init('init-1', 2)))[0]).toMatchObject({ id: 'init-1', result: {} });
  });
});
