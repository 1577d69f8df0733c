/** acp-kit agent (built @acp-kit/protocol) over stdio. */
import { AgentSideConnection } from '@acp-kit/protocol';
import { stdioChannel } from '@acp-kit/protocol/node';
import { AGENT_INFO, MODES, SESSION_ID, chunkParams, chunksRequested } from '../common.js';

const conn = new AgentSideConnection(stdioChannel(), (conn) => ({
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, agentInfo: AGENT_INFO }),
  newSession: () => ({ sessionId: SESSION_ID, modes: MODES }),
  setSessionMode: () => ({}),
  promptSession: async ({ prompt }) => {
    const n = chunksRequested(prompt);
    for (let i = 0; i < n; i++) {
      await conn.sessionUpdate(chunkParams(i));
    }
    return { stopReason: 'end_turn' };
  },
  cancelSession: () => {},
})).start();

await conn.closed;
process.exit(0);
