/** acp-kit agent (built @acp-kit/protocol/v2) over stdio, speaking ACP v2. */
import { stdioChannel } from '@acp-kit/protocol/node';
import { AgentSideConnection } from '@acp-kit/protocol/v2';
import { AGENT_INFO, SESSION_ID, chunksRequested } from '../common.js';
import { AGENT_CAPABILITIES, CONFIG_OPTIONS, IDLE, MESSAGE_ID, RUNNING, v2ChunkParams } from './v2-common.js';

async function stream(conn, n) {
  await conn.sessionUpdate(RUNNING);
  for (let i = 0; i < n; i++) {
    await conn.sessionUpdate(v2ChunkParams(i));
  }
  await conn.sessionUpdate(IDLE);
}

const conn = new AgentSideConnection(stdioChannel(), (conn) => ({
  initialize: () => ({ protocolVersion: 2, capabilities: AGENT_CAPABILITIES, info: AGENT_INFO }),
  newSession: () => ({ sessionId: SESSION_ID, configOptions: CONFIG_OPTIONS }),
  setSessionConfigOption: () => ({ configOptions: CONFIG_OPTIONS }),
  promptSession: ({ prompt }) => {
    // v2 answers once the message is inserted; the turn goes on in updates.
    void stream(conn, chunksRequested(prompt));
    return { messageId: MESSAGE_ID };
  },
  cancelSession: () => {},
})).start();

await conn.closed;
process.exit(0);
