/**
 * Resumable streams: connections cut mid-turn through a proxy on 127.0.0.1 resume from the last
 * event the client saw, with every update delivered exactly once; a gap older than the replay
 * buffer is a clear error; a client that never comes back gets its turn cancelled and its agent
 * stopped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AcpKitError } from '@acp-kit/protocol';
import { startCuttingProxy, type CuttingProxy } from './test-support/cutting-proxy.js';
import {
  connectClient,
  waitFor,
  openSession,
  prompt,
  startHarness,
  type Harness,
  type TestClient,
} from './test-support/remote-harness.js';

let harness: Harness | undefined;
let proxy: CuttingProxy | undefined;
let client: TestClient | undefined;

afterEach(async () => {
  proxy?.release();
  await client?.connection.close();
  await proxy?.close();
  await harness?.close();
  harness = proxy = client = undefined;
});

const expected = (n: number) => Array.from({ length: n }, (_, i) => `u-${i + 1}`);

/** A gate that holds update `at` until `open()`. */
function gateAt(at: number) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { gate: (i: number) => (i === at ? opened : undefined), open };
}

describe.each(['websocket', 'http'] as const)('resuming over %s', (profile) => {
  it('a connection cut mid-turn resumes and every update arrives exactly once, in order', async () => {
    const { gate, open } = gateAt(51);
    harness = await startHarness({ gate });
    proxy = await startCuttingProxy(harness.listener.port);
    client = await connectClient(proxy.url, { profile });
    const sessionId = await openSession(client);
    const turn = prompt(client, sessionId, 'count 100');
    await client.textCount(50);
    const resumed = client.nextEvent('resumed');
    proxy.cut();
    open();
    expect((await turn).stopReason).toBe('end_turn');
    await resumed;
    expect(client.texts).toEqual(expected(100));
    expect(client.events.map((e) => e.type)).toContain('disconnected');
  });

  it('updates the server sent into a dead proxy (it thought them delivered) are replayed once', async () => {
    const { gate, open } = gateAt(21);
    harness = await startHarness({ gate });
    proxy = await startCuttingProxy(harness.listener.port);
    client = await connectClient(proxy.url, { profile });
    const sessionId = await openSession(client);
    const turn = prompt(client, sessionId, 'count 60');
    await client.textCount(20);
    proxy.hold();
    proxy.blackhole();
    open();
    // The server wrote the rest of the turn, and its answer, into the void.
    await proxy.swallowed('u-60');
    expect(client.texts).toEqual(expected(20));
    proxy.release();
    expect((await turn).stopReason).toBe('end_turn');
    expect(client.texts).toEqual(expected(60));
  });

  it('a message the client sends while cut off reaches the agent once the connection resumes', async () => {
    harness = await startHarness();
    proxy = await startCuttingProxy(harness.listener.port);
    const p = proxy;
    client = await connectClient(
      proxy.url,
      { profile },
      {
        // The answer to the agent's question is written while the connection is down.
        requestPermission: async () => {
          p.hold();
          p.cut();
          queueMicrotask(() => p.release());
          return { outcome: { outcome: 'selected', optionId: 'yes' } };
        },
      },
    );
    const sessionId = await openSession(client);
    const result = await prompt(client, sessionId, 'permission');
    expect(result.stopReason).toBe('end_turn');
    expect(client.texts).toEqual(['chose yes']);
  });

  it('a gap older than the replay buffer ends the connection with a clear error', async () => {
    const { gate, open } = gateAt(11);
    harness = await startHarness({ gate, limits: { replay: { maxEvents: 8, maxBytes: 1 << 20 } } });
    proxy = await startCuttingProxy(harness.listener.port);
    client = await connectClient(proxy.url, { profile });
    const sessionId = await openSession(client);
    const turn = prompt(client, sessionId, 'count 40');
    await client.textCount(10);
    proxy.hold();
    proxy.blackhole();
    open();
    await proxy.swallowed('u-40');
    proxy.release();
    const error = await turn.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AcpKitError);
    expect((error as AcpKitError).code).toBe('RESUME_FAILED');
    expect((error as AcpKitError).message).toMatch(/no longer kept.*lost/);
    expect(client.texts).toEqual(expected(10));
  });

  it('a client that vanishes mid-turn: after the grace its turn is cancelled and its agent stopped', async () => {
    let connectionClosed!: () => void;
    const closed = new Promise<void>((resolve) => (connectionClosed = resolve));
    harness = await startHarness({
      limits: { resumeGraceMs: 100 },
      onConnectionClosed: () => connectionClosed(),
    });
    proxy = await startCuttingProxy(harness.listener.port);
    client = await connectClient(proxy.url, { profile, resumeTimeoutMs: 60_000 });
    const sessionId = await openSession(client);
    void prompt(client, sessionId, 'hang').catch(() => undefined);
    await waitFor(() => harness?.agents[0]?.prompts.includes('hang') === true);
    proxy.hold();
    proxy.cut();
    await closed;
    expect(harness.agents[0]?.cancelled).toEqual([sessionId]);
    expect(harness.agents[0]?.stops).toBe(1);
    await harness.agents[0]?.stopped;
  });
});

/** Resolves once `check()` holds, re-checking on every turn of the event loop. */
