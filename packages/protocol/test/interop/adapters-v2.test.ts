/**
 * What the real adapters (Claude, Codex, Gemini; v1 agents) answer to connectAgent's negotiating
 * `initialize`, replayed from recordings (`scripts/record-v2-initialize.ts`) so that CI needs no
 * adapter: our request is still the one they saw, they answer 1 exactly as to a v1 request, we go
 * on in v1 with what they advertised, and the v1 fields beside the v2 ones are what they read.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RawPeer } from '../../src/jsonrpc/test-support/raw-peer.js';
import { createChannelPair } from '../../src/transport/memory.js';
import { connectAgent } from '../../src/connection/negotiate/connect-agent.js';

interface Exchange {
  request: { id: number; params: Record<string, unknown> };
  response: { id: number; result: Record<string, unknown> };
}
interface Recording {
  package: string;
  negotiated: Exchange;
  v1Only: Exchange;
  v2Only: Exchange;
}

const RECORDINGS = JSON.parse(
  readFileSync(new URL('../fixtures/adapters-v2-initialize.json', import.meta.url), 'utf8'),
) as Record<string, Recording>;

const handlers = {
  sessionUpdate: () => undefined,
  requestPermission: () => ({ outcome: { outcome: 'cancelled' as const } }),
};

/** connectAgent against a stand-in that answers what the adapter answered; returns what we sent. */
async function replay(recorded: Exchange, protocolVersion?: 1 | 2) {
  const [clientSide, agentSide] = createChannelPair();
  const peer = new RawPeer(agentSide);
  const params = recorded.request.params;
  const connecting = connectAgent(
    clientSide,
    { v1: handlers, v2: handlers },
    {
      info: params.info as never,
      capabilities: params.capabilities as never,
      clientCapabilities: params.clientCapabilities as never,
      ...(protocolVersion ? { protocolVersion } : {}),
    },
  );
  const sent = await peer.nextFrame();
  peer.send({ ...recorded.response, id: sent.id });
  return { sent, negotiated: await connecting.catch((e: unknown) => e) };
}

describe.each(Object.entries(RECORDINGS))('%s, recorded from the real adapter', (_name, rec) => {
  it('saw the initialize we send today: version 2, the v2 fields and the v1 fields beside them', async () => {
    const { sent } = await replay(rec.negotiated);
    expect(sent.params).toEqual(rec.negotiated.request.params);
    expect(Object.keys(rec.negotiated.request.params).sort()).toEqual(
      ['capabilities', 'clientCapabilities', 'clientInfo', 'info', 'protocolVersion'].sort(),
    );
  });

  it('answered 1, exactly as to a v1 request; we go on in v1 with what it advertised', async () => {
    expect(rec.negotiated.response.result.protocolVersion).toBe(1);
    expect(rec.negotiated.response.result).toEqual(rec.v1Only.response.result);
    const { negotiated } = await replay(rec.negotiated);
    expect(negotiated).toMatchObject({ version: 1 });
    const connection = (negotiated as { connection: { initializeResponse: unknown } }).connection;
    expect(connection.initializeResponse).toEqual(rec.negotiated.response.result);
  });
});

describe('the v1 fields beside the v2 ones are what a v1 adapter reads', () => {
  it('Claude offers terminal logins only to a client whose clientCapabilities say so: with v2 fields alone it offers none', () => {
    const claude = RECORDINGS['claude-agent-acp']!;
    const types = (e: Exchange) => (e.response.result.authMethods as { type?: string }[]).map((m) => m.type);
    expect(claude.negotiated.request.params.clientCapabilities).toMatchObject({ auth: { terminal: true } });
    expect(types(claude.negotiated)).toEqual(['terminal', 'terminal']);
    expect(claude.v2Only.request.params).not.toHaveProperty('clientCapabilities');
    expect(types(claude.v2Only)).toEqual([]);
  });
});
