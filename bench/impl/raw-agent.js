/**
 * Raw baseline agent: answers the bench methods with hand-built frames. `argv[2]` says how it
 * writes a streamed answer: `await` (default) one `stdout.write` per frame, waiting for 'drain'
 * when it returns false (the raw per-line floor); `batch` frames gathered into 64 KiB writes, the
 * same size the acp-kit channel coalesces to (the raw batched floor); `ignore` one write per frame
 * without ever waiting (an agent that ignores backpressure).
 *
 * Also the flooding agent of `bench/run-flood.mjs`: a prompt `flood N SIZE` is answered with N
 * chunks of SIZE characters (each starting with its sequence number); `flood N SIZE lines`, the
 * same text with a line break every 80 characters (characters JSON escapes, as in most texts).
 */
import { once } from 'node:events';
import { AGENT_INFO, MODES, SESSION_ID, chunkParams, chunksRequested } from '../common.js';
import { FrameBatch, readLines, writeFrame } from './raw-framing.js';

const out = process.stdout;
const writes = process.argv[2] ?? 'await';
if (!['await', 'batch', 'ignore'].includes(writes)) throw new Error(`unknown write mode ${writes}`);
const batch = writes === 'batch' ? new FrameBatch(out) : undefined;

async function streamChunks(n, params = chunkParams) {
  for (let i = 0; i < n; i++) {
    const frame = { jsonrpc: '2.0', method: 'session/update', params: params(i) };
    const ok = batch ? batch.add(frame) : writeFrame(out, frame);
    if (!ok && writes !== 'ignore') await once(out, 'drain');
  }
  if (batch && !batch.flush()) await once(out, 'drain');
}

/** SIZE characters in lines of 80, starting with `head`. */
function linesOf(head, size) {
  const line = `${'lorem ipsum dolor sit amet '.repeat(3).slice(0, 79)}\n`;
  return (head + line.repeat(Math.ceil(size / line.length))).slice(0, size);
}

/** `flood N SIZE [lines]`: N chunks of SIZE characters, or undefined for another prompt. */
function flood(prompt) {
  const match = /^flood (\d+) (\d+)( lines)?$/.exec(prompt[0]?.text ?? '');
  if (!match) return undefined;
  const size = Number(match[2]);
  const text = match[3]
    ? (i) => linesOf(`${i} `, size)
    : (i) => `${i} `.padEnd(size, 'lorem ipsum dolor sit amet ');
  return {
    n: Number(match[1]),
    params: (i) => ({
      sessionId: SESSION_ID,
      update: {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: text(i) },
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
      result = { sessionId: SESSION_ID, modes: MODES };
      break;
    case 'session/set_mode':
      result = {};
      break;
    case 'session/prompt': {
      const asked = flood(msg.params.prompt);
      await (asked ? streamChunks(asked.n, asked.params) : streamChunks(chunksRequested(msg.params.prompt)));
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
  process.exit(0);
});
