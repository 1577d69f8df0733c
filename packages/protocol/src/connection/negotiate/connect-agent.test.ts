/**
 * connectAgent: one `initialize` asking for v2 with both field sets, continued in the version the
 * agent answers; forced versions; what the agent sends right behind its answer is not lost.
 */
import { describe, expect, it } from 'vitest';
import { RawPeer } from '../../jsonrpc/test-support/raw-peer.js';
import type * as V1 from '../../schema/types.gen.js';
import type * as V2 from '../../schema/v2/types.gen.js';
import { createChannelPair } from '../../transport/memory.js';
import type { ClientHandlers } from '../client-side.js';
import type { ClientHandlers as V2ClientHandlers } from '../v2/client-side.js';
import { connectAgent, type ClientVersions, type ConnectAgentOptions } from './connect-agent.js';
import { serveAgent } from './serve-agent.js';

const INFO = { name: 'acp-kit-test', version: '0.1.0' };
const FS: V1.ClientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };
const OPTIONS: ConnectAgentOptions = {
  info: INFO,
  capabilities: { elicitation: { form: {} } },
  clientCapabilities: FS,
  validateOutgoing: true,
};

function clients(log: string[]): Required<ClientVersions> {
  const v1: ClientHandlers = {
    sessionUpdate: (p) => void log.push(`v1 update ${p.update.sessionUpdate}`),
    requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
  };
  const v2: V2ClientHandlers = {
    sessionUpdate: (p) => void log.push(`v2 update ${p.update.sessionUpdate}`),
    requestPermission: (p) => {
      log.push(`v2 permission ${p.title}`);
      return { outcome: { outcome: 'selected', optionId: p.options[0]!.optionId } };
    },
  };
  return { v1, v2 };
}

/** serveAgent on one end of a pair, recording what each face's initialize saw. */
function agent(which: { v1?: boolean; v2?: boolean }) {
  const [agentSide, clientSide] = createChannelPair();
  const seen: { v1: V1.InitializeRequest[]; v2: V2.InitializeRequest[] } = { v1: [], v2: [] };
  serveAgent(agentSide, {
    v1: which.v1
      ? {
          initialize: (p) => {
            seen.v1.push(p);
            return { protocolVersion: 1, agentCapabilities: { loadSession: true } };
          },
          newSession: () => ({ sessionId: 's1' }),
          promptSession: () => ({ stopReason: 'end_turn' }),
          cancelSession: () => undefined,
        }
      : undefined,
    v2: which.v2
      ? {
          initialize: (p) => {
            seen.v2.push(p);
            return { protocolVersion: 2, info: { name: 'a', version: '2' }, capabilities: { session: {} } };
          },
          newSession: () => ({ sessionId: 's2' }),
          promptSession: () => ({ messageId: 'm1' }),
          cancelSession: () => undefined,
        }
      : undefined,
  });
  return { clientSide, seen };
}

describe('connectAgent against serveAgent', () => {
  it('a v1+v2 agent answers 2: the v2 connection, one initialize carrying both field sets', async () => {
    const { clientSide, seen } = agent({ v1: true, v2: true });
    const negotiated = await connectAgent(clientSide, clients([]), OPTIONS);
    expect(negotiated.version).toBe(2);
    expect(seen.v2).toEqual([
      {
        protocolVersion: 2,
        info: INFO,
        capabilities: { elicitation: { form: {} } },
        clientInfo: INFO,
        clientCapabilities: FS,
      },
    ]);
    if (negotiated.version !== 2) return;
    expect(negotiated.connection.initializeResponse?.protocolVersion).toBe(2);
    expect(await negotiated.connection.newSession({ cwd: '/w' })).toEqual({ sessionId: 's2' });
  });

  it('a v1-only agent answers 1: the v1 connection, and the agent saw our fs and terminal', async () => {
    const { clientSide, seen } = agent({ v1: true });
    const negotiated = await connectAgent(clientSide, clients([]), OPTIONS);
    expect(negotiated.version).toBe(1);
    expect(seen.v1).toEqual([{ protocolVersion: 1, clientCapabilities: FS, clientInfo: INFO }]);
    if (negotiated.version !== 1) return;
    expect(negotiated.connection.agentCapabilities).toEqual({ loadSession: true });
    expect(await negotiated.connection.newSession({ cwd: '/w', mcpServers: [] })).toEqual({
      sessionId: 's1',
    });
  });

  it('forced to 1, it sends the v1 fields only and a v1+v2 agent answers in v1', async () => {
    const { clientSide, seen } = agent({ v1: true, v2: true });
    const negotiated = await connectAgent(clientSide, clients([]), { ...OPTIONS, protocolVersion: 1 });
    expect(negotiated.version).toBe(1);
    expect(seen.v1).toEqual([{ protocolVersion: 1, clientCapabilities: FS, clientInfo: INFO }]);
  });

  it('forced to 2, it sends the v2 fields only; a v1-only agent answering 1 is refused and closed', async () => {
    const { clientSide, seen } = agent({ v1: true });
    const failed = await connectAgent(clientSide, clients([]), { ...OPTIONS, protocolVersion: 2 }).catch(
      (e: unknown) => e,
    );
    expect(failed).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL_VERSION', details: { agentVersion: 1 } });
    // The v1 face saw a translated v2 request: without the v1 fields, no fs and no terminal.
    expect(seen.v1[0]?.clientCapabilities).toMatchObject({ fs: { readTextFile: false }, terminal: false });
  });

  it('a v2-only agent answering -32022 to v1 rejects with its ProtocolError, and the channel closes', async () => {
    const { clientSide } = agent({ v2: true });
    const failed = await connectAgent(clientSide, { v1: clients([]).v1 }, OPTIONS).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: -32022, data: { requested: 1, supported: [2] } });
  });
});

describe('connectAgent against a raw agent', () => {
  it('messages written right behind (and even before) the answer reach the chosen face, in order', async () => {
    const [clientSide, agentSide] = createChannelPair();
    const peer = new RawPeer(agentSide);
    const log: string[] = [];
    const connecting = connectAgent(clientSide, clients(log), OPTIONS);
    const request = await peer.nextFrame();
    const update = (sessionUpdate: string) => ({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate, state: 'running' } },
    });
    // One write: a (misplaced) notification before the answer, the answer, then more.
    peer.sendRaw(
      [
        update('state_update'),
        {
          jsonrpc: '2.0',
          id: request.id,
          result: { protocolVersion: 2, info: { name: 'raw', version: '1' } },
        },
        {
          jsonrpc: '2.0',
          method: 'session/update',
          params: { sessionId: 's', update: { sessionUpdate: 'agent_thought', messageId: 't1' } },
        },
        {
          jsonrpc: '2.0',
          id: 'perm-1',
          method: 'session/request_permission',
          params: {
            sessionId: 's',
            title: 'Run?',
            options: [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }],
          },
        },
      ]
        .map((f) => JSON.stringify(f))
        .join('\n') + '\n',
    );
    const negotiated = await connecting;
    expect(negotiated.version).toBe(2);
    expect(await peer.nextFrame()).toMatchObject({ id: 'perm-1', result: { outcome: { optionId: 'ok' } } });
    expect(log).toEqual(['v2 update state_update', 'v2 update agent_thought', 'v2 permission Run?']);
  });

  it('an answer in a version it does not speak closes the connection', async () => {
    const [clientSide, agentSide] = createChannelPair();
    const peer = new RawPeer(agentSide);
    const connecting = connectAgent(clientSide, clients([]), OPTIONS).catch((e: unknown) => e);
    const request = await peer.nextFrame();
    peer.send({ jsonrpc: '2.0', id: request.id, result: { protocolVersion: 3, info: INFO } });
    expect(await connecting).toMatchObject({
      code: 'UNSUPPORTED_PROTOCOL_VERSION',
      details: { agentVersion: 3, clientVersion: [1, 2] },
    });
    await peer.waitForEnd();
  });
});
