/** Official SDK agent (@agentclientprotocol/sdk experimental v2 API) over stdio. */
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { agent } from '@agentclientprotocol/sdk/experimental/v2';
import { AGENT_INFO, SESSION_ID, chunksRequested } from '../common.js';
import { AGENT_CAPABILITIES, CONFIG_OPTIONS, IDLE, MESSAGE_ID, RUNNING, v2ChunkParams } from './v2-common.js';

async function stream(client, n) {
  await client.notify('session/update', RUNNING);
  for (let i = 0; i < n; i++) {
    await client.notify('session/update', v2ChunkParams(i));
  }
  await client.notify('session/update', IDLE);
}

const app = agent({ name: 'bench-agent' })
  .onRequest('initialize', () => ({ protocolVersion: 2, capabilities: AGENT_CAPABILITIES, info: AGENT_INFO }))
  .onRequest('session/new', () => ({ sessionId: SESSION_ID, configOptions: CONFIG_OPTIONS }))
  .onRequest('session/set_config_option', () => ({ configOptions: CONFIG_OPTIONS }))
  .onRequest('session/prompt', ({ params, client }) => {
    void stream(client, chunksRequested(params.prompt));
    return { messageId: MESSAGE_ID };
  })
  .onNotification('session/cancel', () => {});

const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
process.exit(0);
