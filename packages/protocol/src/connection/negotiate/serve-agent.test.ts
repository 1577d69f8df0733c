/**
 * serveAgent: the version each connection is answered in, what happens before a valid
 * `initialize` (as the SDK's AgentProtocolRouter does), the hand-over to the chosen face on the
 * same engine, and the `initialize` a v1 face sees when the client asked for v2.
 */
import { describe, expect, it } from 'vitest';
import { RawPeer } from '../../jsonrpc/test-support/raw-peer.js';
import type * as V1 from '../../schema/types.gen.js';
import { createChannelPair } from '../../transport/memory.js';
import type { AgentHandlers } from '../agent-side.js';
import { NOT_INITIALIZED_MESSAGE } from '../initialize-gate.js';
import type { AgentHandlers as V2AgentHandlers } from '../v2/agent-side.js';
import { selectProtocolVersion } from './select-version.js';
import { serveAgent, type AgentVersions } from './serve-agent.js';

const INFO = { name: 'raw-client', version: '1' };
const FS = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

function v1Agent(seen: unknown[]): AgentHandlers {
  return {
    initialize: (params) => {
      seen.push(params);
      return { protocolVersion: 1, agentCapabilities: {} };
    },
    newSession: () => ({ sessionId: 'v1-session' }),
    promptSession: () => ({ stopReason: 'end_turn' }),
    cancelSession: () => undefined,
  };
}

function v2Agent(seen: unknown[]): V2AgentHandlers {
  return {
    initialize: (params) => {
      seen.push(params);
      return { protocolVersion: 2, info: { name: 'agent', version: '2' }, capabilities: { session: {} } };
    },
    newSession: () => ({ sessionId: 'v2-session' }),
    promptSession: () => ({ messageId: 'm1' }),
    cancelSession: () => undefined,
  };
}

function setup(which: { v1?: boolean; v2?: boolean }) {
  const [agentSide, clientSide] = createChannelPair();
  const seen: { v1: unknown[]; v2: unknown[] } = { v1: [], v2: [] };
  const versions: AgentVersions = {};
  if (which.v1) versions.v1 = v1Agent(seen.v1);
  if (which.v2) versions.v2 = v2Agent(seen.v2);
  const served = serveAgent(agentSide, versions);
  return { served, peer: new RawPeer(clientSide), seen };
}

const init = (id: number, protocolVersion: unknown, extra: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, ...extra },
});

describe('selectProtocolVersion', () => {
  it('picks the highest served version at or below the requested one; v1 alone answers 1 to all', () => {
    const pick = (requested: number, v1: boolean, v2: boolean) => {
      try {
        return selectProtocolVersion(requested, { v1, v2 });
      } catch (error) {
        return error;
      }
    };
    expect([0, 1, 2, 9].map((r) => pick(r, true, false))).toEqual([1, 1, 1, 1]);
    expect([1, 2, 9].map((r) => pick(r, true, true))).toEqual([1, 2, 2]);
    expect([2, 9].map((r) => pick(r, false, true))).toEqual([2, 2]);
    expect(pick(0, true, true)).toMatchObject({ code: -32022, data: { requested: 0, supported: [1, 2] } });
    expect(pick(1, false, true)).toMatchObject({ code: -32022, data: { requested: 1, supported: [2] } });
  });
});

describe('serveAgent before a valid initialize', () => {
  it('refuses requests, ignores notifications and responses, answers a batch once, stays open', async () => {
    const { served, peer, seen } = setup({ v1: true, v2: true });
    expect(
      await peer.exchange({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w' } }),
    ).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32600, message: NOT_INITIALIZED_MESSAGE, data: { method: 'session/new' } },
      },
    ]);
    expect(
      await peer.exchange({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } }),
    ).toEqual([]);
    expect(await peer.exchange({ jsonrpc: '2.0', id: 99, result: {} })).toEqual([]);
    expect(await peer.exchange([init(2, 2, { info: INFO })])).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
    ]);
    expect((await peer.exchange(init(3, 'two', { info: INFO })))[0]).toMatchObject({
      id: 3,
      error: { code: -32602, data: { path: 'params.protocolVersion' } },
    });
    // Invalid params for the version it would pick: refused, still unrouted.
    expect((await peer.exchange(init(4, 2, { info: 7 })))[0]).toMatchObject({
      id: 4,
      error: { code: -32602, data: { path: 'params.info' } },
    });
    expect(served.negotiated).toBeUndefined();
    expect((await peer.exchange(init(5, 1, { clientCapabilities: {} })))[0]).toMatchObject({
      id: 5,
      result: { protocolVersion: 1 },
    });
    expect((await served.chosen)?.version).toBe(1);
    expect(seen).toEqual({ v1: [{ protocolVersion: 1, clientCapabilities: {} }], v2: [] });
  });

  it('answers -32022 with its typed data when no served version fits, then routes a later one', async () => {
    const { served, peer } = setup({ v2: true });
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
    expect((await peer.exchange(init(2, 2, { info: INFO })))[0]).toMatchObject({ id: 2, result: {} });
    expect(served.negotiated?.version).toBe(2);
  });

  it('a connection that ends before initialize resolves `chosen` with undefined', async () => {
    const { served, peer } = setup({ v1: true });
    peer.channel.close();
    expect(await served.chosen).toBeUndefined();
  });
});

describe('serveAgent hands the connection to the chosen face', () => {
  it('a pipelined request behind initialize is answered by the same face, in order', async () => {
    const { peer } = setup({ v1: true, v2: true });
    peer.sendRaw(
      `${JSON.stringify(init(1, 2, { info: INFO }))}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: '/w' } })}\n`,
    );
    expect(await peer.nextFrame()).toMatchObject({ id: 1, result: { protocolVersion: 2 } });
    expect(await peer.nextFrame()).toMatchObject({ id: 2, result: { sessionId: 'v2-session' } });
  });

  it("is never re-routed: a repeat asking for v1 is the v2 face's -32600", async () => {
    const { served, peer, seen } = setup({ v1: true, v2: true });
    await peer.exchange(init(1, 2, { info: INFO }));
    expect((await peer.exchange(init(2, 1, { clientCapabilities: {} })))[0]).toMatchObject({
      id: 2,
      error: { code: -32600 },
    });
    expect(served.negotiated?.version).toBe(2);
    expect(seen.v1).toEqual([]);
  });

  it('a v2 face sees a newer version as 2, with the v1 fields sent beside it left as extra keys', async () => {
    const { peer, seen } = setup({ v1: true, v2: true });
    await peer.exchange(init(1, 3, { info: INFO, clientCapabilities: FS, clientInfo: INFO }));
    expect(seen.v2).toEqual([{ protocolVersion: 2, info: INFO, clientCapabilities: FS, clientInfo: INFO }]);
  });
});

describe('the initialize a v1 face sees when the client asked for v2', () => {
  it('takes the v1 fields sent beside the v2 ones: the client keeps its fs and terminals', async () => {
    const { served, peer, seen } = setup({ v1: true });
    const answer = await peer.exchange(
      init(1, 2, {
        info: INFO,
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'acp-kit', version: '0.1.0' },
        clientCapabilities: FS,
      }),
    );
    expect(answer[0]).toMatchObject({ id: 1, result: { protocolVersion: 1 } });
    expect(seen.v1).toEqual([
      { protocolVersion: 1, clientCapabilities: FS, clientInfo: { name: 'acp-kit', version: '0.1.0' } },
    ]);
    const chosen = await served.chosen;
    expect(chosen?.version === 1 && chosen.connection.clientCapabilities).toEqual(FS);
  });

  it('translates a v2-only initialize: no fs, no terminal, elicitation and terminal auth kept', async () => {
    const { peer, seen } = setup({ v1: true });
    await peer.exchange(
      init(1, 2, {
        info: INFO,
        capabilities: { elicitation: { form: {} }, auth: { terminal: {} }, _meta: { x: 1 } },
        _meta: { traceparent: '00-1-2-01' },
      }),
    );
    const expected: V1.InitializeRequest = {
      protocolVersion: 1,
      clientCapabilities: {
        fs: { readTextFile: false, writeTextFile: false },
        terminal: false,
        auth: { terminal: true },
        session: { configOptions: { boolean: {} } },
        elicitation: { form: {} },
        _meta: { x: 1 },
      },
      clientInfo: INFO,
      _meta: { traceparent: '00-1-2-01' },
    };
    expect(seen.v1).toEqual([expected]);
  });

  it('a v1 face asked for version 0 or 1 sees the request as sent, at version 1', async () => {
    const { peer, seen } = setup({ v1: true });
    await peer.exchange(init(1, 0, { clientCapabilities: FS }));
    expect(seen.v1).toEqual([{ protocolVersion: 1, clientCapabilities: FS }]);
  });
});
