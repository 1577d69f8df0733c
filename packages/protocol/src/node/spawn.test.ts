/** spawnPeer with real child processes over real pipes: exits, signals, spawn failures, EPIPE. */
import { afterEach, describe, expect, it } from 'vitest';
import { AcpKitError } from '../jsonrpc/errors.js';
import { JsonRpcConnection } from '../jsonrpc/connection.js';
import { deferred } from '../jsonrpc/test-support/raw-peer.js';
import { spawnPeer, type SpawnedPeer, type SpawnPeerOptions } from './spawn.js';
import { fixture } from './test-support/helpers.js';

const peers: SpawnedPeer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.shutdown({ graceMs: 200 })));
});

function start(script: string, args: string[] = [], options: SpawnPeerOptions = {}) {
  const peer = spawnPeer(process.execPath, [fixture(script), ...args], options);
  peers.push(peer);
  const connection = new JsonRpcConnection(peer.channel, { peerName: 'agent' });
  const ready = deferred<Record<string, unknown>>();
  connection.onUnhandledNotification((params, ctx) => {
    if (ctx.method === 'ready' || ctx.method === 'stdin-closed')
      ready.resolve(params as Record<string, unknown>);
  });
  connection.start();
  return { peer, connection, ready: ready.promise };
}

describe('spawnPeer', () => {
  it('talks JSON-RPC over the child stdio', async () => {
    const { peer, connection, ready } = start('raw-echo.mjs');
    await ready;
    expect(peer.pid).toBeGreaterThan(0);
    await expect(connection.request('echo', { hello: 'wörld' })).resolves.toEqual({ hello: 'wörld' });
    for (let i = 0; i < 10; i++) await connection.notify('n', { i });
    await expect(connection.request('count')).resolves.toBe(10);
  });

  it('rejects pending requests with the exit code and a sanitised stderr tail', async () => {
    const { peer, connection } = start('exit-with-stderr.mjs', ['3']);
    const error = (await connection.request('initialize', {}).catch((e: unknown) => e)) as AcpKitError;
    expect(error).toBeInstanceOf(AcpKitError);
    expect(error.code).toBe('PEER_EXITED');
    expect(error.message).toBe(
      'agent exited with code 3\n--- last stderr ---\nstarting up\nError: no API key configured',
    );
    expect(error.details).toMatchObject({ exitCode: 3, signal: null });
    await expect(peer.exited).resolves.toMatchObject({ exitCode: 3, signal: null });
    expect(peer.stderrTail()).toContain('Error: no API key configured');
    await expect(connection.closed).resolves.toBe(error);
  });

  it('reports a SIGKILLed peer', async () => {
    const { peer, connection, ready } = start('hang.mjs');
    await ready;
    const pending = connection.request('session/prompt', {});
    process.kill(peer.pid as number, 'SIGKILL');
    await expect(pending).rejects.toMatchObject({
      code: 'PEER_EXITED',
      message: 'agent was killed by SIGKILL',
    });
  });

  it('fails with SPAWN_FAILED naming the command when it does not exist', async () => {
    const peer = spawnPeer('acp-kit-no-such-command', ['--acp']);
    peers.push(peer);
    const connection = new JsonRpcConnection(peer.channel, { peerName: 'agent' });
    connection.start();
    const error = (await connection.request('initialize').catch((e: unknown) => e)) as AcpKitError;
    expect(error.code).toBe('SPAWN_FAILED');
    expect(error.message).toContain('acp-kit-no-such-command');
    expect(error.message).toContain('command not found');
    expect(peer.pid).toBeUndefined();
    const exited = await peer.exited;
    expect((exited.cause as AcpKitError).code).toBe('SPAWN_FAILED');
    await expect(peer.shutdown()).resolves.toBe(exited);
  });

  it('says so when the working directory does not exist', async () => {
    const peer = spawnPeer(process.execPath, ['-e', ''], { cwd: '/nonexistent/acp-kit-dir' });
    peers.push(peer);
    const exited = await peer.exited;
    expect((exited.cause as Error).message).toContain(
      'working directory /nonexistent/acp-kit-dir does not exist',
    );
  });

  it('always drains stderr, keeps a bounded tail and forwards chunks to onStderr', async () => {
    let forwarded = 0;
    const peer = spawnPeer(process.execPath, [fixture('stderr-flood.mjs'), '256'], {
      stderrTailBytes: 1024,
      onStderr: (chunk) => (forwarded += chunk.length),
    });
    peers.push(peer);
    const exited = await peer.exited;
    expect(exited.exitCode).toBe(0);
    expect(forwarded).toBeGreaterThan(256 * 1024);
    expect(Buffer.byteLength(exited.stderrTail ?? '')).toBeLessThanOrEqual(1024);
    expect(exited.stderrTail?.endsWith('FINAL LINE\n')).toBe(true);
  });

  it('turns a write into a closed stdin (EPIPE) into the exit details, never "write EPIPE"', async () => {
    // The exit follows the EPIPE closely here; give it time to be seen as an exit, not a lost connection.
    const { peer, connection, ready } = start('close-stdin.mjs', [], { exitStatusWaitMs: 5000 });
    await ready;
    const writeFailed = new Promise((resolve) => peer.child.stdin?.once('error', resolve));
    const outcome = connection.request('anything', { pad: 'x'.repeat(100_000) }).catch((e: unknown) => e);
    await writeFailed;
    process.kill(peer.pid as number, 'SIGUSR2');
    const error = (await outcome) as AcpKitError;
    expect(error.code).toBe('PEER_EXITED');
    expect(error.message).toBe('agent exited with code 4\n--- last stderr ---\nbye');
    expect(error.message).not.toMatch(/EPIPE/);
  });

  it('ends the channel even when a grandchild keeps stdout open after the exit', async () => {
    const { peer, connection } = start('grandparent.mjs', ['leave', 'inherit'], { exitWaitMs: 200 });
    const pending = connection.request('x');
    await new Promise<void>((resolve) => peer.child.stdout?.once('data', () => resolve()));
    process.kill(peer.pid as number, 'SIGTERM');
    await expect(pending).rejects.toMatchObject({
      code: 'PEER_EXITED',
      message: 'agent was killed by SIGTERM',
    });
  });
});
