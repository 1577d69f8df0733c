/**
 * Interop over the remote transport (RFD "Streamable HTTP & WebSocket Transport"), real sockets
 * on 127.0.0.1, the whole interop scenario in each combination:
 * - acp-kit's remote client ↔ the official SDK's experimental server (AcpServer + its Node
 *   adapter), over WebSocket, over Streamable HTTP, and with `auto` against a server that only
 *   speaks Streamable HTTP (the upgrade is refused, the client falls back);
 * - the SDK's experimental ws-client and http-client ↔ acp-kit's RemoteServer (listenRemote).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type * as acp from '@agentclientprotocol/sdk';
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import {
  createNodeHttpHandler,
  createNodeWebSocketUpgradeHandler,
} from '@agentclientprotocol/sdk/experimental/node';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { createChannelPair } from '@acp-kit/protocol';
import { RemoteServer, type RemoteChannel } from '@acp-kit/protocol/remote';
import { connectRemoteAgent, listenRemote } from '@acp-kit/protocol/remote/node';
import { createAcpKitAgent } from './fixtures/acp-kit-agent.js';
import { createSdkAgent } from './fixtures/sdk-agent.mjs';
import {
  FakeEditor,
  acpKitClientDriver,
  sdkClientApp,
  sdkClientDriver,
  type ClientDriver,
} from './harness.js';
import { defineScenarioSuite, openSession, text } from './scenario-suite.js';
import { PROMPTS, STREAM_UPDATES } from './fixtures/scenario.mjs';

/** The SDK's experimental server on 127.0.0.1 (WebSocket too unless `httpOnly`). */
async function sdkServer(httpOnly = false): Promise<{ url: string; close(): Promise<void> }> {
  const server = new AcpServer({ createAgent: () => createSdkAgent() });
  const http: Server = createServer(createNodeHttpHandler(server));
  const wss = new WebSocketServer({ noServer: true });
  if (!httpOnly) http.on('upgrade', createNodeWebSocketUpgradeHandler(server, wss));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/acp`,
    close: async () => {
      await server.close();
      for (const client of wss.clients) client.terminate();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function acpKitClientToSdkServer(profile: 'websocket' | 'http' | 'auto', httpOnly = false) {
  return async (): Promise<ClientDriver & { channel: RemoteChannel }> => {
    const server = await sdkServer(httpOnly);
    const channel = await connectRemoteAgent(server.url, { profile });
    const driver = acpKitClientDriver(channel, {}, async (connection) => {
      await connection.close();
      await server.close();
    });
    return Object.assign(driver, { channel });
  };
}

/** acp-kit's server with the acp-kit interop agent in-process, one per connection. */
async function acpKitServer() {
  const server = new RemoteServer({
    startAgent: () => {
      const [ours, theirs] = createChannelPair();
      const agent = createAcpKitAgent(theirs);
      return { channel: ours, stop: () => agent.close() };
    },
  });
  return listenRemote(server);
}

function sdkClientToAcpKitServer(profile: 'websocket' | 'http') {
  return async (): Promise<ClientDriver> => {
    const listener = await acpKitServer();
    const stream =
      profile === 'websocket'
        ? createWebSocketStream(listener.url.replace(/^http/, 'ws'), { WebSocket })
        : createHttpStream(listener.url);
    const editor = new FakeEditor();
    const connection = sdkClientApp(editor).connect(stream as acp.Stream);
    return sdkClientDriver(editor, connection, async () => {
      connection.close();
      await connection.closed;
      await listener.close();
    });
  };
}

defineScenarioSuite(
  'acp-kit remote client ↔ SDK experimental server, WebSocket',
  acpKitClientToSdkServer('websocket'),
);
defineScenarioSuite(
  'acp-kit remote client ↔ SDK experimental server, Streamable HTTP',
  acpKitClientToSdkServer('http'),
);
defineScenarioSuite(
  'acp-kit remote client (auto) ↔ SDK experimental server without WebSocket: falls back to Streamable HTTP',
  acpKitClientToSdkServer('auto', true),
  (current) => {
    it('chose Streamable HTTP after the refused upgrade', async () => {
      const driver = current() as ClientDriver & { channel: RemoteChannel };
      await openSession(driver);
      expect(driver.channel.profile).toBe('http');
    });
  },
);
defineScenarioSuite(
  'SDK experimental ws-client ↔ acp-kit RemoteServer',
  sdkClientToAcpKitServer('websocket'),
);
defineScenarioSuite(
  'SDK experimental http-client ↔ acp-kit RemoteServer',
  sdkClientToAcpKitServer('http'),
  (current) => {
    it('streams a turn in order over the SDK http-client', async () => {
      const driver = current();
      const sessionId = await openSession(driver);
      await driver.prompt({ sessionId, prompt: [text(PROMPTS.stream)] });
      expect(driver.editor.updates(sessionId)).toEqual(STREAM_UPDATES);
    });
  },
);
