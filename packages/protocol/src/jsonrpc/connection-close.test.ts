/** Rule 7: the peer going away, local close, oversized messages; and Content-Length framing. */
import { describe, expect, it } from 'vitest';
import { AcpKitError } from './errors.js';
import { JsonRpcConnection } from './connection.js';
import { createChannelPair } from '../transport/memory.js';
import { connectPair, connectToRawPeer, deferred, recordingLogger } from './test-support/raw-peer.js';

describe('peer gone', () => {
  it('rejects pending requests with PEER_EXITED, exit code and stderr tail, and aborts handlers', async () => {
    const { connection, peer, remote } = connectToRawPeer({ peerName: 'agent' });
    const handlerAbort = deferred<unknown>();
    connection.onRequest('fs/read_text_file', (_params, ctx) => {
      ctx.signal.addEventListener('abort', () => handlerAbort.resolve(ctx.signal.reason));
      return new Promise(() => undefined);
    });
    connection.start();
    const pending = connection.request('session/prompt');
    peer.send({ jsonrpc: '2.0', id: 'c1', method: 'fs/read_text_file' });
    await peer.nextFrame();
    remote.close({ exitCode: 3, signal: null, stderrTail: 'Error: no API key\n' });
    const error = (await pending.catch((e: unknown) => e)) as AcpKitError;
    expect(error).toBeInstanceOf(AcpKitError);
    expect(error.code).toBe('PEER_EXITED');
    expect(error.message).toBe('agent exited with code 3\n--- last stderr ---\nError: no API key');
    expect(error.details).toMatchObject({ exitCode: 3, stderrTail: 'Error: no API key\n' });
    await expect(connection.closed).resolves.toBe(error);
    expect(connection.isClosed).toBe(true);
    expect(await handlerAbort.promise).toBe(error);
    // Later calls fail at once with the same error.
    await expect(connection.request('again')).rejects.toBe(error);
    await expect(connection.notify('again')).rejects.toBe(error);
  });

  it.each([
    [{ signal: 'SIGKILL', exitCode: null }, 'PEER_EXITED', 'agent was killed by SIGKILL'],
    [undefined, 'CONNECTION_CLOSED', 'agent closed the connection'],
    [
      { cause: new AcpKitError('SPAWN_FAILED', 'failed to start nope: command not found') },
      'SPAWN_FAILED',
      'agent connection failed: failed to start nope: command not found',
    ],
  ])('maps close details %j to %s', async (details, code, message) => {
    const { connection, remote } = connectToRawPeer({ peerName: 'agent' });
    connection.start();
    const pending = connection.request('x');
    remote.close(details);
    await expect(pending).rejects.toMatchObject({ code, message });
  });

  it('still settles a request whose response arrived before the end, in order', async () => {
    const { connection, peer, remote } = connectToRawPeer();
    const gate = deferred();
    connection.onNotification('session/update', () => gate.promise);
    connection.start();
    const answered = connection.request('session/prompt');
    const unanswered = connection.request('other');
    const request = await peer.nextFrame();
    peer.send({ jsonrpc: '2.0', method: 'session/update' });
    peer.send({ jsonrpc: '2.0', id: request.id, result: { stopReason: 'end_turn' } });
    remote.close({ exitCode: 0 });
    const reason = await connection.closed;
    expect(reason.code).toBe('PEER_EXITED');
    await expect(unanswered).rejects.toBe(reason);
    gate.resolve();
    await expect(answered).resolves.toEqual({ stopReason: 'end_turn' });
  });

  it('delivers a final line without a newline before closing', async () => {
    const { connection, peer, remote } = connectToRawPeer();
    connection.start();
    const pending = connection.request('x');
    const request = await peer.nextFrame();
    peer.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: 'last words' }));
    remote.close();
    await expect(pending).resolves.toBe('last words');
  });

  it('closes locally: pending requests reject CONNECTION_CLOSED and the peer sees its input end', async () => {
    const { left, right } = connectPair({ peerName: 'agent' });
    right.onRequest('slow', () => new Promise(() => undefined));
    left.start();
    right.start();
    const pending = left.request('slow');
    await left.close();
    const error = (await pending.catch((e: unknown) => e)) as AcpKitError;
    expect(error.code).toBe('CONNECTION_CLOSED');
    await expect(left.closed).resolves.toBe(error);
    const remoteReason = await right.closed;
    expect(remoteReason.code).toBe('CONNECTION_CLOSED');
    await expect(left.close()).resolves.toBeUndefined();
  });
});

describe('oversized messages', () => {
  it('closes the connection with MESSAGE_TOO_LARGE: one log line, no -32700 storm', async () => {
    const logger = recordingLogger();
    const { connection, peer } = connectToRawPeer({ maxMessageBytes: 1024, logger });
    connection.start();
    const pending = connection.request('x');
    await peer.nextFrame();
    peer.sendRaw('{"junk":"' + 'x'.repeat(100_000) + '"}\n' + 'y'.repeat(5000) + '\n');
    const error = (await pending.catch((e: unknown) => e)) as AcpKitError;
    expect(error.code).toBe('MESSAGE_TOO_LARGE');
    await expect(connection.closed).resolves.toBe(error);
    await peer.waitForEnd();
    expect(peer.frames).toHaveLength(1); // only our request: no error replies
    expect(logger.entries.filter((e) => e.level === 'error')).toHaveLength(1);
  });
});

describe('Content-Length framing', () => {
  it('answers in kind when the peer starts with Content-Length headers', async () => {
    const [local, remote] = createChannelPair();
    const connection = new JsonRpcConnection(local, { detectContentLength: true });
    connection.onRequest('echo', (params) => params);
    connection.start();
    let received = '';
    const got = deferred();
    remote.start({
      data: (chunk) => {
        received += new TextDecoder().decode(chunk);
        if (received.endsWith('}')) got.resolve();
      },
      end: () => undefined,
    });
    const body = '{"jsonrpc":"2.0","id":1,"method":"echo","params":{"t":"é"}}';
    remote.write(`Content-Length: ${new TextEncoder().encode(body).length}\r\n\r\n${body}`);
    await got.promise;
    const reply = '{"jsonrpc":"2.0","id":1,"result":{"t":"é"}}';
    expect(received).toBe(`Content-Length: ${new TextEncoder().encode(reply).length}\r\n\r\n${reply}`);
  });

  it('keeps NDJSON when detection is off', async () => {
    const { connection, peer } = connectToRawPeer();
    connection.onRequest('echo', (params) => params);
    connection.start();
    peer.sendRaw('Content-Length: 2\r\n\r\n{}\n');
    peer.send({ jsonrpc: '2.0', id: 1, method: 'echo', params: [] });
    const frames = await peer.waitForFrames(3);
    expect(frames).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      { jsonrpc: '2.0', id: 1, result: [] },
    ]);
  });
});
