/** stdioChannel in a real agent process, and outbound backpressure over a real pipe. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonRpcConnection } from '../jsonrpc/connection.js';
import { deferred } from '../jsonrpc/test-support/raw-peer.js';
import { spawnPeer, type SpawnedPeer } from './spawn.js';
import { fixture } from './test-support/helpers.js';

const peers: SpawnedPeer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.shutdown({ graceMs: 200 })));
});

describe('stdioChannel in a child process', () => {
  it('serves requests, streams notifications in order, and exits when its stdin closes', async () => {
    // The fixture imports acp-kit's TypeScript sources, so it runs with the tsx loader.
    const peer = spawnPeer(process.execPath, ['--import', 'tsx', fixture('stdio-agent.mjs')], {
      cwd: process.cwd(),
    });
    peers.push(peer);
    const connection = new JsonRpcConnection(peer.channel, { peerName: 'agent' });
    const received: number[] = [];
    connection.onNotification('session/update', (params) => void received.push((params as { i: number }).i));
    connection.start();
    await expect(connection.request('echo', { text: 'héllo' })).resolves.toEqual({ text: 'héllo' });
    await expect(connection.request('stream', { count: 3000 })).resolves.toEqual({ sent: 3000 });
    expect(received).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    await connection.close();
    const exited = await peer.exited;
    expect(exited).toMatchObject({ exitCode: 0, signal: null });
    expect(exited.stderrTail).toContain('closed: CONNECTION_CLOSED');
  });
});

describe('backpressure over a real pipe', () => {
  it('keeps the writer bounded while the reader does not read, and delivers everything after', async () => {
    const peer = spawnPeer(process.execPath, [fixture('raw-echo.mjs'), 'paused']);
    peers.push(peer);
    const connection = new JsonRpcConnection(peer.channel, { peerName: 'agent' });
    const ready = deferred();
    connection.onNotification('ready', () => ready.resolve());
    connection.start();
    await ready.promise;

    const blocked = deferred();
    const drain = peer.channel.drain.bind(peer.channel);
    vi.spyOn(peer.channel, 'drain').mockImplementation(() => {
      blocked.resolve();
      return drain();
    });
    const total = 3000;
    const pad = 'x'.repeat(2000);
    let sent = 0;
    let maxBuffered = 0;
    const producer = (async () => {
      for (let i = 0; i < total; i++) {
        await connection.notify('session/update', { i, pad });
        sent++;
        maxBuffered = Math.max(maxBuffered, peer.channel.bufferedLength);
      }
    })();
    await blocked.promise;
    // 6 MB to send, but only what the kernel and one batch hold is in flight.
    expect(sent).toBeLessThan(total);
    const bound = 64 * 1024 + 4 * 1024;
    expect(peer.channel.bufferedLength).toBeLessThan(bound);
    process.kill(peer.pid as number, 'SIGUSR2');
    await producer;
    expect(maxBuffered).toBeLessThan(bound);
    await expect(connection.request('count')).resolves.toBe(total);
  });
});
