/** acp-kit agent (built @acp-kit/protocol) over stdio. */
import { AgentSideConnection } from '@acp-kit/protocol';
import { stdioChannel } from '@acp-kit/protocol/node';
import { AGENT_INFO, MODES, SESSION_ID, chunkParams, chunksRequested } from '../common.js';
import { CONFIG_OPTIONS } from './v2-common.js';

/** v2's option list in v1's shape (`id`): the answer of the `acp-kit-config` round trip. */
const V1_CONFIG_OPTIONS = CONFIG_OPTIONS.map(({ configId, ...rest }) => ({ id: configId, ...rest }));

const conn = new AgentSideConnection(stdioChannel(), (conn) => ({
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, agentInfo: AGENT_INFO }),
  newSession: () => ({ sessionId: SESSION_ID, modes: MODES }),
  setSessionMode: () => ({}),
  setSessionConfigOption: () => ({ configOptions: V1_CONFIG_OPTIONS }),
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
