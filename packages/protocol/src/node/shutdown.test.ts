/** spawnPeer#shutdown: stdin first, then SIGTERM, then SIGKILL, for the whole process group. */
import { describe, expect, it, vi } from 'vitest';
import { JsonRpcConnection } from '../jsonrpc/connection.js';
import { deferred } from '../jsonrpc/test-support/raw-peer.js';
import { spawnPeer } from './spawn.js';
import { fixture, isAlive } from './test-support/helpers.js';

function start(script: string, args: string[] = []) {
  const peer = spawnPeer(process.execPath, [fixture(script), ...args]);
  const connection = new JsonRpcConnection(peer.channel, { peerName: 'agent' });
  const announced = deferred<Record<string, unknown>>();
  connection.onUnhandledNotification((params) => announced.resolve(params as Record<string, unknown>));
  connection.start();
  return { peer, connection, announced: announced.promise };
}

describe('shutdown', () => {
  it('closes stdin first, then sends SIGTERM after the grace period', async () => {
    const { peer, announced } = start('signal-logger.mjs', ['exit-on-term']);
    await announced;
    const details = await peer.shutdown({ graceMs: 150 });
    expect(details).toMatchObject({ exitCode: 0, signal: null });
    expect(details.stderrTail).toBe('stdin closed\ngot SIGTERM\n');
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const { peer, announced } = start('signal-logger.mjs', ['ignore-term']);
    await announced;
    const details = await peer.shutdown({ graceMs: 150 });
    expect(details).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
    expect(details.stderrTail).toBe('stdin closed\ngot SIGTERM\n');
    expect(isAlive(peer.pid as number)).toBe(false);
  });

  it('a second call with a smaller grace hurries the shutdown, signals included', async () => {
    const { peer, announced } = start('signal-logger.mjs', ['ignore-term']);
    await announced;
    const slow = peer.shutdown({ graceMs: 60_000 });
    await new Promise<void>((resolve) => {
      const check = (): void =>
        void (peer.stderrTail().includes('stdin closed') ? resolve() : setTimeout(check, 10));
      check();
    });
    // What was sent to the peer's group is read where it is sent: with no grace left, SIGKILL
    // follows SIGTERM at once, and the peer may be killed before it could log the SIGTERM.
    const kill = vi.spyOn(process, 'kill');
    try {
      const hurried = peer.shutdown({ graceMs: 0 });
      expect(hurried).toBe(slow);
      const details = await hurried;
      expect(details).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
      expect(details.stderrTail?.startsWith('stdin closed\n')).toBe(true);
      // SIGTERM was still sent before SIGKILL: no step is skipped, only the waiting.
      const sent = kill.mock.calls.filter(([pid, signal]) => pid === -(peer.pid as number) && signal !== 0);
      expect(sent.map(([, signal]) => signal)).toEqual(['SIGTERM', 'SIGKILL']);
    } finally {
      kill.mockRestore();
    }
  });

  it('stops at the first step when the peer exits once its stdin closes', async () => {
    const { peer, connection, announced } = start('raw-echo.mjs');
    await announced;
    const started = Date.now();
    const details = await peer.shutdown({ graceMs: 5000 });
    expect(details).toMatchObject({ exitCode: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(4000);
    // The connection itself was not closed: it learns that the agent exited.
    await expect(connection.closed).resolves.toMatchObject({
      code: 'PEER_EXITED',
      message: 'agent exited with code 0',
    });
  });

  it('kills the whole process group: a grandchild is gone afterwards', async () => {
    const { peer, announced } = start('grandparent.mjs', ['stay']);
    const { pid } = (await announced) as { pid: number };
    expect(isAlive(pid)).toBe(true);
    await peer.shutdown({ graceMs: 150 });
    expect(isAlive(pid)).toBe(false);
    expect(isAlive(peer.pid as number)).toBe(false);
  });

  it('cleans up a grandchild left behind by a peer that exited on its own', async () => {
    const { peer, announced } = start('grandparent.mjs', ['leave']);
    const { pid } = (await announced) as { pid: number };
    const details = await peer.shutdown({ graceMs: 150 });
    expect(details.exitCode).toBe(0);
    expect(isAlive(pid)).toBe(false);
  });

  it('is idempotent and works after the peer already exited', async () => {
    const { peer, announced } = start('raw-echo.mjs');
    await announced;
    const first = peer.shutdown({ graceMs: 100 });
    expect(peer.shutdown()).toBe(first);
    const details = await first;
    await expect(peer.exited).resolves.toEqual(details);
  });
});
