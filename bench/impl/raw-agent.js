/** Raw baseline agent: answers the bench methods with hand-built frames. */
import { once } from 'node:events';
import {
  AGENT_INFO,
  MODES,
  SESSION_ID,
  chunkParams,
  chunksRequested,
  markAgentBaseline,
  writeAgentStats,
} from '../common.js';
import { readLines, writeFrame } from './raw-framing.js';

const out = process.stdout;

async function streamChunks(n) {
  for (let i = 0; i < n; i++) {
    if (!writeFrame(out, { jsonrpc: '2.0', method: 'session/update', params: chunkParams(i) })) {
      await once(out, 'drain');
    }
  }
}

async function handle(msg) {
  if (msg.id === undefined || msg.method === undefined) return; // notifications, responses
  let result;
  switch (msg.method) {
    case 'initialize':
      result = { protocolVersion: 1, agentCapabilities: {}, agentInfo: AGENT_INFO };
      break;
    case 'session/new':
      markAgentBaseline();
      result = { sessionId: SESSION_ID, modes: MODES };
      break;
    case 'session/set_mode':
      result = {};
      break;
    case 'session/prompt':
      await streamChunks(chunksRequested(msg.params.prompt));
      writeAgentStats();
      result = { stopReason: 'end_turn' };
      break;
    default:
      writeFrame(out, { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
      return;
  }
  writeFrame(out, { jsonrpc: '2.0', id: msg.id, result });
}

readLines(process.stdin, (msg) => {
  void handle(msg);
});
process.stdin.on('end', () => {
  writeAgentStats();
  process.exit(0);
});
