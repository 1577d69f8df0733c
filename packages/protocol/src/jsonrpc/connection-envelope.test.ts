/** Rule 1: JSON-RPC 2.0 envelopes, exactly. */
import { describe, expect, it } from 'vitest';
import { AcpKitError, ProtocolError } from './errors.js';
import { connectPair, connectToRawPeer, recordingLogger } from './test-support/raw-peer.js';

function setup(options: { answerParseErrors?: () => boolean } = {}) {
  const logger = recordingLogger();
  const { connection, peer } = connectToRawPeer({ logger, ...options });
  connection.onRequest('echo', (params) => params);
  connection.start();
  return { connection, peer, logger };
}

const SECRET = 'SECRET-PAYLOAD-7f3a';

describe('inbound envelopes', () => {
  it('answers a parse failure with -32700 and id null, without echoing the frame', async () => {
    const { peer } = setup();
    const replies = await peer.exchange(`{"jsonrpc":"2.0","id":1,"method":"echo","params":"${SECRET}"`);
    expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }]);
  });

  it('answers only the first 16 unparseable lines of a peer that logs to stdout, then stays usable', async () => {
    const { peer, logger } = setup();
    for (let i = 0; i < 40; i++) peer.sendRaw(`log line ${i}: not JSON\n`);
    const replies = await peer.exchange({ jsonrpc: '2.0', id: 7, method: 'echo', params: ['ok'] });
    const parseErrors = peer.frames.filter(
      (f) => (f as { error?: { code?: number } }).error?.code === -32700,
    );
    expect(parseErrors).toHaveLength(16);
    expect(replies.at(-1)).toEqual({ jsonrpc: '2.0', id: 7, result: ['ok'] });
    expect(logger.entries.filter((e) => e.level === 'warn')).toHaveLength(1);
  });

  it('answers a batch with ONE -32600 (id null)', async () => {
    const { peer } = setup();
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'echo' },
      { jsonrpc: '2.0', id: 2, method: 'echo' },
    ];
    const replies = await peer.exchange(batch);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await peer.exchange([])).toEqual([
      expect.objectContaining({ id: null, error: expect.anything() }),
    ]);
  });

  it.each([['42'], ['"text"'], ['null'], ['true'], ['{}'], ['{"jsonrpc":"2.0"}']])(
    'answers the non-request %s with -32600 and id null',
    async (text) => {
      const { peer } = setup();
      const replies = await peer.exchange(text);
      expect(replies).toHaveLength(1);
      expect(replies[0]).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid request' },
      });
    },
  );

  it.each([
    ['wrong jsonrpc', { jsonrpc: '1.0', id: 7, method: 'echo' }, 7],
    ['missing jsonrpc', { id: 'abc', method: 'echo' }, 'abc'],
    ['non-string method', { jsonrpc: '2.0', id: 8, method: 42 }, 8],
    ['primitive params', { jsonrpc: '2.0', id: 9, method: 'echo', params: 5 }, 9],
    ['object id', { jsonrpc: '2.0', id: {}, method: 'echo' }, null],
    ['boolean id', { jsonrpc: '2.0', id: true, method: 'echo' }, null],
    ['null id', { jsonrpc: '2.0', id: null, method: 'echo' }, null],
    ['oversized id', { jsonrpc: '2.0', id: 'x'.repeat(2000), method: 'echo' }, null],
    ['non-string method and bad id', { jsonrpc: '2.0', id: [1], method: null }, null],
    ['notification with wrong jsonrpc', { jsonrpc: 2, method: 'echo' }, null],
    ['notification with primitive params', { jsonrpc: '2.0', method: 'echo', params: 'x' }, null],
  ])('answers %s with -32600 and id %j', async (_name, frame, id) => {
    const { peer } = setup();
    const replies = await peer.exchange(frame);
    expect(replies).toEqual([{ jsonrpc: '2.0', id, error: expect.objectContaining({ code: -32600 }) }]);
  });

  it('accepts string and number ids and echoes them exactly', async () => {
    const { peer } = setup();
    peer.send({ jsonrpc: '2.0', id: 'req-1', method: 'echo', params: { a: 1 } });
    peer.send({ jsonrpc: '2.0', id: 0, method: 'echo', params: [1] });
    peer.send({ jsonrpc: '2.0', id: 1.5, method: 'echo' });
    const frames = await peer.waitForFrames(3);
    expect(frames).toEqual([
      { jsonrpc: '2.0', id: 'req-1', result: { a: 1 } },
      { jsonrpc: '2.0', id: 0, result: [1] },
      { jsonrpc: '2.0', id: 1.5, result: null },
    ]);
  });

  it('echoes a numeric id beyond 2^53 exactly as its digits were sent, in results and errors', async () => {
    const { connection, peer } = setup();
    connection.onRequest('fail', () => {
      throw ProtocolError.invalidParams({ path: 'x', message: 'no' });
    });
    // Each of these parses to a rounded double (or Infinity): 9007199254740993 reads as ...992.
    peer.sendRaw('{"jsonrpc":"2.0","id":9007199254740993,"method":"echo","params":[1]}\n');
    peer.sendRaw('{"jsonrpc":"2.0","method":"echo","params":{"id":1},"id" : -18446744073709551617}\n');
    peer.sendRaw('{"jsonrpc":"2.0","id":1e400,"method":"fail","params":{}}\n');
    peer.sendRaw('{"jsonrpc":"2.0","\\u0069d":12345678901234567890,"method":"nope","params":{}}\n');
    peer.sendRaw('{"jsonrpc":"1.0","id":9007199254740995,"method":"echo"}\n');
    await peer.waitForFrames(5);
    const ids = peer.lines.map((line) => /"id":([^,]*),/.exec(line)?.[1]);
    expect(ids).toEqual([
      '9007199254740993',
      '-18446744073709551617',
      '1e400',
      '12345678901234567890',
      '9007199254740995',
    ]);
    expect(peer.frames.map((f) => Object.keys(f).at(-1))).toEqual([
      'result',
      'result',
      'error',
      'error',
      'error',
    ]);
    expect(peer.frames[3]).toMatchObject({ error: { code: -32601 } });
    expect(peer.frames[4]).toMatchObject({ error: { code: -32600 } });
  });

  it('never answers response-shaped frames, and logs only the id of unknown ones', async () => {
    const { peer, logger } = setup();
    const replies = await peer.exchange({ jsonrpc: '2.0', id: 99, result: SECRET });
    expect(replies).toEqual([]);
    expect(await peer.exchange({ jsonrpc: '2.0', id: 100, error: { code: 1, message: SECRET } })).toEqual([]);
    expect(
      await peer.exchange({ jsonrpc: '2.0', id: null, error: { code: -32700, message: SECRET } }),
    ).toEqual([]);
    expect(await peer.exchange({ jsonrpc: '2.0', id: 5 })).toEqual([]);
    expect(await peer.exchange({ result: SECRET })).toEqual([]);
    const dropped = logger.entries.filter((e) => e.message.includes('unknown request id'));
    expect(dropped.map((e) => e.fields)).toEqual([{ id: 99 }, { id: 100 }, { id: 5 }, { id: null }]);
    expect(dropped.every((e) => e.level === 'debug')).toBe(true);
    expect(JSON.stringify(logger.entries)).not.toContain(SECRET);
  });

  it('reads a frame written right after text that did not end its line, and answers the text alone', async () => {
    const { connection, peer } = setup();
    const seen: unknown[] = [];
    connection.onNotification('note', (params) => void seen.push(params));
    const replies = await peer.exchange(
      'Waiting for authentication...{"jsonrpc":"2.0","method":"note","params":{"n":1}}',
    );
    expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) }]);
    expect(seen).toEqual([{ n: 1 }]);
  });

  it('keeps quiet about lines that are not JSON while answerParseErrors says so', async () => {
    let answer = false;
    const { peer } = setup({ answerParseErrors: () => answer });
    expect(await peer.exchange('Enter the authorization code:')).toEqual([]);
    answer = true;
    expect(await peer.exchange('more text')).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) },
    ]);
  });

  it('does not ping-pong errors between two engines', async () => {
    const seen: { left: string[]; right: string[] } = { left: [], right: [] };
    const { left, right, leftChannel } = connectPair(
      { trace: (dir, text) => dir === 'in' && seen.left.push(text) },
      { trace: (dir, text) => dir === 'in' && seen.right.push(text) },
    );
    right.onRequest('ping', () => 'pong');
    left.start();
    right.start();
    leftChannel.write('garbage\n');
    await expect(left.request('ping')).resolves.toBe('pong');
    // right saw the garbage and the ping; left saw the -32700 and the pong. Nothing else.
    expect(seen.right).toHaveLength(2);
    expect(seen.left).toHaveLength(2);
    expect(JSON.parse(seen.left[0] as string)).toMatchObject({ id: null, error: { code: -32700 } });
  });
});

describe('responses to our requests', () => {
  async function answer(response: Record<string, unknown>): Promise<unknown> {
    const { connection, peer } = setup();
    const pending = connection.request('work', { n: 1 });
    const request = await peer.nextFrame();
    peer.send({ ...response, id: response.id === undefined ? request.id : response.id });
    return pending;
  }

  it('sends increasing integer ids and omits absent params', async () => {
    const { connection, peer } = setup();
    void connection.request('a');
    void connection.request('b', { x: 1 });
    void connection.notify('c');
    const frames = await peer.waitForFrames(3);
    expect(frames).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'a' },
      { jsonrpc: '2.0', id: 2, method: 'b', params: { x: 1 } },
      { jsonrpc: '2.0', method: 'c' },
    ]);
  });

  it('resolves with the result', async () => {
    await expect(answer({ jsonrpc: '2.0', result: { ok: true } })).resolves.toEqual({ ok: true });
    await expect(answer({ jsonrpc: '2.0', result: null })).resolves.toBeNull();
  });

  it('rejects with a ProtocolError carrying code, message and data', async () => {
    const error = await answer({
      jsonrpc: '2.0',
      error: { code: -32002, message: 'Not found', data: { id: 's' } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32002, message: 'Not found', data: { id: 's' } });
  });

  it('uses a usable code even when the message is missing', async () => {
    const error = await answer({ jsonrpc: '2.0', error: { code: -32000 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32000, message: 'peer error -32000' });
  });

  it.each([
    ['both result and error', { jsonrpc: '2.0', result: 1, error: { code: 1, message: 'x' } }],
    ['neither result nor error', { jsonrpc: '2.0' }],
    ['a string error', { jsonrpc: '2.0', error: 'bad' }],
    ['a non-integer code', { jsonrpc: '2.0', error: { code: 'E1', message: 'x' } }],
    ['a wrong jsonrpc', { jsonrpc: '1.0', result: 1 }],
  ])('rejects INVALID_RESPONSE for %s', async (_name, response) => {
    const error = await answer(response).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AcpKitError);
    expect((error as AcpKitError).code).toBe('INVALID_RESPONSE');
    expect((error as AcpKitError).message).toContain('work');
  });

  it('tolerates error: null next to a result', async () => {
    await expect(answer({ jsonrpc: '2.0', result: 'r', error: null })).resolves.toBe('r');
  });

  it('resolves with what parseResult makes of the result, rejects with what it throws', async () => {
    const { connection, peer } = setup();
    const parse = (result: unknown) => {
      if (typeof result !== 'number') throw new AcpKitError('INVALID_RESPONSE', 'not a number');
      return { doubled: result * 2 };
    };
    const good = connection.request('work', { n: 1 }, {}, parse);
    const bad = connection.request('work', { n: 2 }, undefined, parse);
    const first = await peer.nextFrame();
    const second = await peer.nextFrame();
    peer.send({ jsonrpc: '2.0', id: first.id, result: 21 });
    peer.send({ jsonrpc: '2.0', id: second.id, result: 'x' });
    await expect(good).resolves.toEqual({ doubled: 42 });
    await expect(bad).rejects.toMatchObject({ code: 'INVALID_RESPONSE', message: 'not a number' });
    // An error answer never reaches the parse.
    const failed = connection.request('work', { n: 3 }, {}, parse);
    const third = await peer.nextFrame();
    peer.send({ jsonrpc: '2.0', id: third.id, error: { code: -32002, message: 'Not found' } });
    await expect(failed).rejects.toMatchObject({ code: -32002 });
  });

  it('matches ids exactly: an id echoed as a string settles nothing', async () => {
    const { connection, peer } = setup();
    const pending = connection.request('work', { n: 1 });
    const request = await peer.nextFrame();
    expect(request.id).toBe(1);
    expect(await peer.exchange({ jsonrpc: '2.0', id: '1', result: 'wrong' })).toEqual([]);
    peer.send({ jsonrpc: '2.0', id: 1, result: 'right' });
    await expect(pending).resolves.toBe('right');
  });
});
