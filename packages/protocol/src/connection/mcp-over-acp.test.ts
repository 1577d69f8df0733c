/**
 * `mcp/message` between typed connections over an in-memory byte pair: inner results and inner
 * errors inside successful outer results, request-scoped notifications, cancellation of an inner
 * request, outer binding errors, and the opt-in and capability gates.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError } from '../jsonrpc/errors.js';
import { createChannelPair } from '../transport/memory.js';
import type { MessageMcpNotification, MessageMcpRequest } from '../schema/unstable/types.gen.js';
import { AgentSideConnection } from './agent-side.js';
import { ClientSideConnection, PROTOCOL_VERSION } from './client-side.js';
import {
  MCP_OVER_ACP_PROTOCOL_VERSION,
  MCP_REQUEST_META,
  McpBindingErrorCode,
  handleMcpMessageNotifications,
  handleMcpMessageRequests,
  isAcpMcpServer,
  notifyMcpMessage,
  requestMcpMessage,
} from './mcp-over-acp.js';

const meta = {
  [MCP_REQUEST_META.protocolVersion]: MCP_OVER_ACP_PROTOCOL_VERSION,
  [MCP_REQUEST_META.clientCapabilities]: {},
};

let open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

function pair(unstable: boolean, acp = true): { agent: AgentSideConnection; client: ClientSideConnection } {
  const [a, b] = createChannelPair();
  const agent = new AgentSideConnection(
    a,
    {
      initialize: () => ({
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: { mcpCapabilities: acp ? ({ acp: true } as object) : {} },
      }),
      newSession: () => ({ sessionId: 's' }),
      promptSession: () => ({ stopReason: 'end_turn' }),
      cancelSession: () => undefined,
    },
    { unstable, validateOutgoing: true },
  ).start();
  const client = new ClientSideConnection(
    b,
    { sessionUpdate: () => undefined, requestPermission: () => ({ outcome: { outcome: 'cancelled' } }) },
    { unstable, validateOutgoing: true },
  ).start();
  open.push(agent, client);
  return { agent, client };
}

describe('mcp/message', () => {
  it('carries inner results, inner errors and request-scoped notifications', async () => {
    const { agent, client } = pair(true);
    await client.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const seen: MessageMcpRequest[] = [];
    const notes: MessageMcpNotification[] = [];
    handleMcpMessageNotifications(agent, (n) => notes.push(n));
    handleMcpMessageRequests(client, async (params) => {
      seen.push(params);
      if (params.method === 'tools/call') return { error: { code: -32602, message: 'no such tool' } };
      await notifyMcpMessage(client, {
        serverId: params.serverId,
        requestId: params.requestId,
        method: 'notifications/progress',
        params: { progressToken: 't', progress: 1 },
      });
      return { result: { tools: [] } };
    });

    const listed = await requestMcpMessage(agent, {
      serverId: 'srv',
      requestId: 'r1',
      method: 'tools/list',
      params: { _meta: meta },
    });
    expect(listed).toEqual({ result: { tools: [] } });
    // The notification is ordered before the response that ends its request.
    expect(notes).toEqual([
      {
        serverId: 'srv',
        requestId: 'r1',
        method: 'notifications/progress',
        params: { progressToken: 't', progress: 1 },
      },
    ]);
    const failed = await requestMcpMessage(agent, {
      serverId: 'srv',
      requestId: 'r2',
      method: 'tools/call',
      params: { name: 'x', _meta: meta },
    });
    expect(failed).toEqual({ error: { code: -32602, message: 'no such tool' } });
    expect(seen.map((s) => [s.requestId, s.method, s.params?._meta])).toEqual([
      ['r1', 'tools/list', meta],
      ['r2', 'tools/call', meta],
    ]);
  });

  it('cancels an inner request through the outer one and reports binding errors as outer errors', async () => {
    const { agent, client } = pair(true);
    await client.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let aborted!: () => void;
    const cancelled = new Promise<void>((resolve) => (aborted = resolve));
    handleMcpMessageRequests(client, (params, ctx) => {
      if (params.serverId !== 'srv') {
        throw new ProtocolError(
          McpBindingErrorCode.serverUnavailable,
          `Unknown MCP server ${params.serverId}`,
        );
      }
      started();
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          aborted();
          reject(new ProtocolError(McpBindingErrorCode.requestCancelled, 'cancelled'));
        });
      });
    });

    const unknown = await requestMcpMessage(agent, {
      serverId: 'nope',
      requestId: 'r0',
      method: 'tools/list',
      params: { _meta: meta },
    }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: McpBindingErrorCode.serverUnavailable });

    const controller = new AbortController();
    const call = requestMcpMessage(
      agent,
      { serverId: 'srv', requestId: 'r1', method: 'tools/call', params: { name: 'wait', _meta: meta } },
      { signal: controller.signal },
    ).catch((e: unknown) => e);
    await running;
    controller.abort();
    await cancelled;
    expect(await call).toMatchObject({ code: 'REQUEST_ABORTED' });
  });

  it('validates the envelope and is refused without the unstable opt-in', async () => {
    const { agent, client } = pair(true);
    await client.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    handleMcpMessageRequests(client, () => ({ result: null }));
    const bad = await agent.rpc
      .request('mcp/message', { serverId: 'srv', method: 'tools/list' })
      .catch((e) => e);
    expect(bad).toMatchObject({ code: -32602 });

    const stable = pair(false);
    expect(() => handleMcpMessageRequests(stable.client, () => ({ result: null }))).toThrow(/unstable/);
    await expect(
      requestMcpMessage(stable.agent, { serverId: 's', requestId: 'r', method: 'tools/list' }),
    ).rejects.toThrow(/unstable/);
  });

  it('sends type "acp" servers only to an agent advertising mcpCapabilities.acp', async () => {
    const server = { type: 'acp', name: 'local', serverId: 'srv-1' } as const;
    expect(isAcpMcpServer(server)).toBe(true);
    expect(isAcpMcpServer({ name: 'x', command: 'y', args: [], env: [] })).toBe(false);

    const without = pair(true, false);
    await without.client.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    await expect(
      without.client.newSession({ cwd: '/w', mcpServers: [server as never] }),
    ).rejects.toMatchObject({
      code: 'CAPABILITY_NOT_SUPPORTED',
    });
    const withAcp = pair(true, true);
    await withAcp.client.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    await expect(withAcp.client.newSession({ cwd: '/w', mcpServers: [server as never] })).resolves.toEqual({
      sessionId: 's',
    });
  });
});
