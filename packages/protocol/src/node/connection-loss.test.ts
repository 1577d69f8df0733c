/**
 * A peer that closes one of its pipes but keeps running (RELIABILITY C3, C4): the loss is seen at
 * once, pending requests reject with an error that says what happened, and the process is stopped
 * without anyone calling shutdown().
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AcpKitError } from '../jsonrpc/errors.js';
import { JsonRpcConnection } from '../jsonrpc/connection.js';
import { deferred } from '../jsonrpc/test-support/raw-peer.js';
import { spawnPeer, type SpawnedPeer } from './spawn.js';
import { fixture, isAlive } from './test-support/helpers.js';

const peers: SpawnedPeer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.shutdown({ graceMs: 0 })));
});

function start(script: string, args: string[] = []) {
  const peer = spawnPeer(process.execPath, [fixture(script), ...args]);
  peers.push(peer);
  const connection = new JsonRpcConnection(peer.channel, { peerName: 'agent' });
  const ready = deferred();
  connection.onUnhandledNotification(() => ready.resolve());
  connection.start();
  return { peer, connection, ready: ready.promise };
}

describe('connection loss while the peer keeps running', () => {
  it('closed stdout (C4): rejects pending requests, says so, and stops the process', async () => {
    const { peer, connection, ready } = start('close-stdout.mjs', ['ignore-term']);
    await ready;
    const started = performance.now();
    const error = (await connection.request('session/prompt', {}).catch((e: unknown) => e)) as AcpKitError;
    const detectMs = performance.now() - started;
    expect(error).toBeInstanceOf(AcpKitError);
    expect(error.code).toBe('CONNECTION_CLOSED');
    expect(error.message).toBe(
      'agent connection failed: the process closed its stdout but kept running; it is being stopped',
    );
    console.info(`closed stdout detected in ${detectMs.toFixed(0)} ms`);
    // The shutdown sequence already runs: a second call only hurries it past the ignored SIGTERM.
    const details = await peer.shutdown({ graceMs: 0 });
    expect(details.signal).toBe('SIGKILL');
    expect(isAlive(peer.pid as number)).toBe(false);
  });

  it('closed stdout: the shutdown starts by itself (stdin closed, then SIGTERM)', async () => {
    const { peer, connection, ready } = start('close-stdout.mjs');
    await ready;
    await connection.closed;
    // Nobody calls shutdown(): the process still ends, by the SIGTERM step it does not ignore.
    const details = await peer.exited;
    expect(details.signal).toBe('SIGTERM');
  });

  it('closed stdin (C3): the failed write rejects pending requests and the process is stopped', async () => {
    const { peer, connection, ready } = start('close-stdin.mjs');
    await ready;
    const started = performance.now();
    const error = (await connection
      .request('anything', { pad: 'x'.repeat(100_000) })
      .catch((e: unknown) => e)) as AcpKitError;
    const detectMs = performance.now() - started;
    expect(error.code).toBe('CONNECTION_CLOSED');
    expect(error.message).toBe(
      'agent connection failed: the process closed its stdin but kept running; it is being stopped',
    );
    expect(error.message).not.toMatch(/EPIPE/);
    console.info(`closed stdin detected in ${detectMs.toFixed(0)} ms`);
    const details = await peer.exited;
    expect(details.signal).toBe('SIGTERM');
  });
});
