/** acp-kit client (built @acp-kit/protocol/v2): spawns the acp-kit v2 agent with spawnPeer. */
import { URL, fileURLToPath } from 'node:url';
import { spawnPeer } from '@acp-kit/protocol/node';
import { ClientSideConnection } from '@acp-kit/protocol/v2';
import { CLIENT_INFO, CWD, promptParams } from '../common.js';
import { runClient } from '../harness.js';
import { SET_MODE, V2Turns } from './v2-common.js';

async function open({ agentScript, onUpdate }) {
  const peer = spawnPeer(process.execPath, [...process.execArgv, agentScript]);
  const turns = new V2Turns(onUpdate);
  const conn = new ClientSideConnection(peer.channel, {
    sessionUpdate: (params) => turns.update(params),
    requestPermission: () => ({ outcome: { outcome: 'cancelled' } }),
  }).start();
  return {
    pid: peer.pid,
    initialize: () => conn.initialize({ protocolVersion: 2, capabilities: {}, info: CLIENT_INFO }),
    newSession: () => conn.newSession({ cwd: CWD }),
    prompt: (n) => turns.prompt(() => conn.promptSession(promptParams(n))),
    setMode: () => conn.setSessionConfigOption(SET_MODE),
    close: async () => {
      await peer.shutdown();
      await peer.exited;
    },
  };
}

await runClient('acp-kit-v2', open, fileURLToPath(new URL('./acp-kit-v2-agent.js', import.meta.url)));
