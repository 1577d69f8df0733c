/**
 * The acp-kit v1 client of the protocol bench, shared by `acp-kit-client.js` (the round trip is
 * `session/set_mode`, answered `{}`) and `acp-kit-config-client.js` (the round trip is
 * `session/set_config_option`, answered with the option list, as v2's only way to set a mode is).
 */
import { ClientSideConnection, PROTOCOL_VERSION } from '@acp-kit/protocol';
import { spawnPeer } from '@acp-kit/protocol/node';
import { CLIENT_INFO, CWD, MODE_ID, SESSION_ID, promptParams } from '../common.js';

/** `roundTrip`: `mode` (set_mode) or `config` (set_config_option). */
export function acpKitOpener(roundTrip) {
  return async function open({ agentScript, onUpdate }) {
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
        conn.initialize({
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: {},
          clientInfo: CLIENT_INFO,
        }),
      newSession: () => conn.newSession({ cwd: CWD, mcpServers: [] }),
      prompt: async (n) => (await conn.promptSession(promptParams(n))).stopReason,
      setMode:
        roundTrip === 'config'
          ? () => conn.setSessionConfigOption({ sessionId: SESSION_ID, configId: 'mode', value: MODE_ID })
          : () => conn.setSessionMode({ sessionId: SESSION_ID, modeId: MODE_ID }),
      close: async () => {
        await peer.shutdown();
        await peer.exited;
      },
    };
  };
}
