/**
 * A slow remote reader slows the agent instead of filling the server's memory: the chain
 * client engine → socket → server queue → agent channel pushes back, and nothing is lost or
 * reordered once the reader catches up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectClient,
  openSession,
  prompt,
  startHarness,
  type Harness,
  type TestClient,
} from './test-support/remote-harness.js';

let harness: Harness | undefined;
let client: TestClient | undefined;

afterEach(async () => {
  await client?.connection.close();
  await harness?.close();
  harness = client = undefined;
});

describe.each(['websocket', 'http'] as const)('backpressure over %s', (profile) => {
  it('holds the agent back while the client does not read, then delivers everything in order', async () => {
    const maxQueuedBytes = 256 * 1024;
    harness = await startHarness({ limits: { maxQueuedBytes } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let seen = 0;
    let order = true;
    client = await connectClient(
      harness.listener.url,
      { profile },
      {
        sessionUpdate: async (params) => {
          const text = (params.update as { content?: { text?: string } }).content?.text ?? '';
          if (!text.startsWith(`f-${seen + 1} `)) order = false;
          seen++;
          // The consumer stalls after the first update, as a slow terminal would.
          if (seen === 1) await released;
        },
      },
    );
    const sessionId = await openSession(client);
    const turn = prompt(client, sessionId, 'flood 3000 16384');
    const connection = (): ReturnType<Harness['server']['list']>[number] | undefined =>
      harness?.server.list()[0];
    while (connection()?.stats.agentPaused !== true) await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toBeLessThanOrEqual(1);
    release();
    expect((await turn).stopReason).toBe('end_turn');
    expect(seen).toBe(3000);
    expect(order).toBe(true);
    // Bounded: the limit plus at most one message over it.
    expect(connection()?.stats.peakQueuedBytes ?? 0).toBeLessThan(maxQueuedBytes + 20_000);
  });
});
