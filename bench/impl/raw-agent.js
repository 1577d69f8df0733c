/**
 * Raw baseline agent: answers the bench methods with hand-built frames. Also the flooding agent of
 * `bench/run-flood.mjs`: a prompt `flood N SIZE` is answered with N chunks of SIZE characters
 * (each starting with its sequence number); with argv[2] = 'ignore' it writes without waiting for
 * 'drain' (an agent that ignores backpressure).
 */
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
const honourBackpressure = process.argv[2] !== 'ignore';

async function streamChunks(n, params = chunkParams) {
  for (let i = 0; i < n; i++) {
    const ok = writeFrame(out, { jsonrpc: '2.0', method: 'session/update', params: params(i) });
    if (!ok && honourBackpressure) await once(out, 'drain');
  }
}

/** `flood N SIZE`: N chunks of SIZE characters, or undefined for another prompt. */
function flood(prompt) {
  const match = /^flood (\d+) (\d+)$/.exec(prompt[0]?.text ?? '');
  if (!match) return undefined;
  const size = Number(match[2]);
  return {
    n: Number(match[1]),
    params: (i) => ({
      sessionId: SESSION_ID,
      update: {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: `${i} `.padEnd(size, 'lorem ipsum dolor sit amet ') },
      },
    }),
  };
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
    case 'session/prompt': {
      const asked = flood(msg.params.prompt);
      await (asked ? streamChunks(asked.n, asked.params) : streamChunks(chunksRequested(msg.params.prompt)));
      writeAgentStats();
      result = { stopReason: 'end_turn' };
      break;
    }
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
