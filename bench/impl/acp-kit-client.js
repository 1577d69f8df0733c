/** acp-kit client (built @acp-kit/protocol): spawns the acp-kit agent with spawnPeer. */
import { URL, fileURLToPath } from 'node:url';
import { ClientSideConnection, PROTOCOL_VERSION } from '@acp-kit/protocol';
import { spawnPeer } from '@acp-kit/protocol/node';
import { CLIENT_INFO, CWD, MODE_ID, SESSION_ID, promptParams } from '../common.js';
import { runClient } from '../harness.js';

async function open({ agentScript, onUpdate }) {
  const peer = spawnPeer(process.execPath, [...process.execArgv, agentScript]);
  const conn = new ClientSideConnection(peer.channel, {
    sessionUpdate: (params) => {
      onUpdate(params);
    },
    requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
  }).start();
  return {
    pid: peer.pid,
    initialize: () =>
      conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {}, clientInfo: CLIENT_INFO }),
    newSession: () => conn.newSession({ cwd: CWD, mcpServers: [] }),
    prompt: async (n) => (await conn.promptSession(promptParams(n))).stopReason,
    setMode: () => conn.setSessionMode({ sessionId: SESSION_ID, modeId: MODE_ID }),
    close: async () => {
      await peer.shutdown();
      await peer.exited;
    },
  };
}

await runClient('acp-kit', open, fileURLToPath(new URL('./acp-kit-agent.js', import.meta.url)));
