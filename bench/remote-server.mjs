/**
 * The server side of `bench/remote.mjs` (not part of npm test): a RemoteServer on 127.0.0.1, as
 * `acp serve` runs it. `--agents process` (default) starts the bench agent (impl/acp-kit-agent.js)
 * as a process per connection, as `acp serve` does; `--agents inline` runs a streaming agent in
 * this process per connection (the 100-connection run, where 100 agent processes would measure the
 * agents, not the transport): its updates carry their send time for latency. Prints
 * `{"url":…}` when listening and `{"maxRssKiB":…}` when its stdin closes, then exits.
 */
import { URL, fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { AgentSideConnection, createChannelPair } from '@acp-kit/protocol';
import { spawnPeer } from '@acp-kit/protocol/node';
import { RemoteServer } from '@acp-kit/protocol/remote';
import { listenRemote } from '@acp-kit/protocol/remote/node';
import { SESSION_ID, chunksRequested, option, peakRssKiB } from './common.js';

const AGENT = fileURLToPath(new URL('./impl/acp-kit-agent.js', import.meta.url));
const inline = option('--agents', 'process') === 'inline';

function inlineAgent() {
  const [ours, theirs] = createChannelPair();
  const conn = new AgentSideConnection(theirs, (c) => ({
    initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
    newSession: () => ({ sessionId: SESSION_ID }),
    cancelSession: () => {},
    promptSession: async ({ prompt }) => {
      const n = chunksRequested(prompt);
      for (let i = 0; i < n; i++) {
        const sent = performance.timeOrigin + performance.now();
        await c.sessionUpdate({
          sessionId: SESSION_ID,
          update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${i} ${sent}` } },
        });
      }
      return { stopReason: 'end_turn' };
    },
  }));
  conn.start();
  return { channel: ours, stop: () => conn.close() };
}

const server = new RemoteServer({
  limits: { maxConnections: 256, resumeGraceMs: 30_000 },
  startAgent: () => {
    if (inline) return inlineAgent();
    const peer = spawnPeer(process.execPath, [AGENT]);
    return { channel: peer.channel, stop: () => peer.shutdown({ graceMs: 1000 }) };
  },
});
const listener = await listenRemote(server, { port: Number(option('--port', '0')) });
process.stdout.write(JSON.stringify({ url: listener.url }) + '\n');
process.stdout.on('error', () => {});
process.stdin.resume();
process.stdin.on('end', async () => {
  process.stdout.write(JSON.stringify({ maxRssKiB: peakRssKiB() }) + '\n');
  await listener.close();
  process.exit(0);
});
