/** Official SDK agent (@agentclientprotocol/sdk app API) over stdio. */
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import { AGENT_INFO, MODES, SESSION_ID, chunkParams, chunksRequested } from '../common.js';

const app = agent({ name: 'bench-agent' })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: 1,
    agentCapabilities: {},
    agentInfo: AGENT_INFO,
  }))
  .onRequest(methods.agent.session.new, () => ({ sessionId: SESSION_ID, modes: MODES }))
  .onRequest(methods.agent.session.setMode, () => ({}))
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const n = chunksRequested(params.prompt);
    for (let i = 0; i < n; i++) {
      await client.notify(methods.client.session.update, chunkParams(i));
    }
    return { stopReason: 'end_turn' };
  })
  .onNotification(methods.agent.session.cancel, () => {});

const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
process.exit(0);
