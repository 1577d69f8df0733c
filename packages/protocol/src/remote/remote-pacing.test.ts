/**
 * Read pacing (`coalesceReadsMs`, which `acp` and `acp run` use) over the remote channels: what
 * arrives while reading rests is handed over in one read when it resumes, as a pipe does, so a
 * streamed turn is not slowed to one message per rest (issue 17: remote turns 3.3× slower).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ClientSideConnection, type ByteChannel, type ByteSink } from '@acp-kit/protocol';
import { connectRemoteAgent } from './node/index.js';
import { startHarness, type Harness } from './test-support/remote-harness.js';

let harness: Harness | undefined;
let connection: ClientSideConnection | undefined;

afterEach(async () => {
  await connection?.close();
  connection = undefined;
  await harness?.close();
  harness = undefined;
});

/** The channel, counting the reads (`sink.data` calls) the engine gets. */
function counting(channel: ByteChannel): { channel: ByteChannel; reads: () => number } {
  let reads = 0;
  return {
    reads: () => reads,
    channel: {
      start: (sink: ByteSink) =>
        channel.start({
          data: (chunk) => {
            reads++;
            sink.data(chunk);
          },
          end: (details) => sink.end(details),
        }),
      write: (text) => channel.write(text),
      drain: () => channel.drain(),
      pause: () => channel.pause(),
      resume: () => channel.resume(),
      close: () => channel.close(),
    },
  };
}

describe.each(['websocket', 'http'] as const)('a paced client over %s', (profile) => {
  it('reads what arrived during a rest at once when reading resumes, not one message per rest', async () => {
    harness = await startHarness();
    const remote = await connectRemoteAgent(harness.listener.url, { profile });
    const counted = counting(remote);
    const texts: string[] = [];
    connection = new ClientSideConnection(
      counted.channel,
      {
        sessionUpdate: ({ update }) => {
          const content = (update as { content?: { type?: string; text?: string } }).content;
          if (update.sessionUpdate === 'agent_message_chunk' && content?.type === 'text')
            texts.push(content.text ?? '');
        },
        requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
      },
      { coalesceReadsMs: 100 },
    );
    connection.start();
    await connection.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await connection.newSession({ cwd: '/tmp', mcpServers: [] });
    const before = counted.reads();
    const result = await connection.promptSession({
      sessionId,
      prompt: [{ type: 'text', text: 'count 60' }],
    });
    expect(result.stopReason).toBe('end_turn');
    expect(texts).toEqual(Array.from({ length: 60 }, (_, i) => `u-${i + 1}`));
    // Two reads start a rest; what the agent streamed meanwhile comes in the next read. Before
    // the fix every message after a rest was read alone and rested again: 61 reads, 6 seconds.
    expect(counted.reads() - before).toBeLessThanOrEqual(12);
  });
});
