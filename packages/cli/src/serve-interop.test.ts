/**
 * `acp serve` with other implementations over real sockets on 127.0.0.1: the official SDK's
 * experimental ws-client and http-client run a demo turn against it, and our remote client drives
 * an agent built with the SDK (a real adapter process) that it serves.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import * as acp from '@agentclientprotocol/sdk';
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { ClientSideConnection, type SessionNotification } from '@acp-kit/protocol';
import { connectRemoteAgent } from '@acp-kit/protocol/remote/node';
import { testHome, type TestHome } from './test-support/cli-harness.js';
import { startServe, type Served } from './test-support/serve-harness.js';
import { PROMPTS, STREAM_UPDATES } from '../../protocol/test/interop/fixtures/scenario.mjs';

const SDK_AGENT = fileURLToPath(
  new URL('../../protocol/test/interop/fixtures/sdk-agent.mjs', import.meta.url),
);

let home: TestHome | undefined;
let served: Served | undefined;

afterEach(async () => {
  await served?.stop();
  await home?.cleanup();
  served = home = undefined;
});

describe.each(['websocket', 'http'] as const)(
  'the SDK experimental %s client ↔ acp serve --agent demo',
  (profile) => {
    it('runs a whole demo turn', async () => {
      home = await testHome();
      served = await startServe(home, ['--agent', 'demo']);
      const stream =
        profile === 'websocket'
          ? createWebSocketStream(served.url.replace(/^http/, 'ws'), { WebSocket })
          : createHttpStream(served.url);
      const updates: unknown[] = [];
      const connection = acp
        .client({ name: 'sdk-remote-client' })
        .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params.update))
        .onRequest(acp.methods.client.session.requestPermission, ({ params }) => ({
          outcome: { outcome: 'selected' as const, optionId: params.options[0]?.optionId ?? '' },
        }))
        .connect(stream as acp.Stream);
      const agent = connection.agent;
      const init = (await agent.request(acp.methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: {},
      })) as { protocolVersion: number };
      expect(init.protocolVersion).toBe(1);
      const { sessionId } = (await agent.request(acp.methods.agent.session.new, {
        cwd: home.work,
        mcpServers: [],
      })) as { sessionId: string };
      const result = (await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'hello' }],
      })) as { stopReason: string };
      expect(result.stopReason).toBe('end_turn');
      expect(updates.length).toBeGreaterThan(3);
      connection.close();
      await connection.closed;
    });
  },
);

describe.each(['websocket', 'http'] as const)(
  'acp-kit remote client ↔ acp serve -- node sdk-agent.mjs over %s',
  (profile) => {
    it('streams the scenario turn of an agent built with the SDK, in order', async () => {
      home = await testHome();
      served = await startServe(home, ['--', process.execPath, SDK_AGENT]);
      const channel = await connectRemoteAgent(served.url, { profile });
      const updates: SessionNotification[] = [];
      const connection = new ClientSideConnection(channel, {
        sessionUpdate: (params) => void updates.push(params),
        requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
      }).start();
      await connection.initialize({ protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await connection.newSession({ cwd: '/work/project', mcpServers: [] });
      const result = await connection.promptSession({
        sessionId,
        prompt: [{ type: 'text', text: PROMPTS.stream }],
      });
      expect(result.stopReason).toBe('end_turn');
      expect(JSON.parse(JSON.stringify(updates.map((u) => u.update)))).toEqual(STREAM_UPDATES);
      await connection.close();
    });
  },
);
