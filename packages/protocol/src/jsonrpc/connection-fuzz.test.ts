/**
 * Property: junk lines and mutated envelopes never crash the engine, every request-shaped frame
 * gets exactly one reply, and a normal request afterwards still works. Fixed seeds; fast-check
 * prints the seed and counterexample on failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { connectToRawPeer } from './test-support/raw-peer.js';

type Expectation = { kind: 'none' } | { kind: 'id'; key: string } | { kind: 'null' };

const roundTrip = (text: string) => new TextDecoder().decode(new TextEncoder().encode(text));

function isValidId(id: unknown): boolean {
  // Any number: one beyond 2^53 is echoed with the digits it was sent with.
  return typeof id === 'number' || (typeof id === 'string' && id.length <= 1024);
}

/** What the engine must send back for one line, straight from the rules. */
function expectedReply(line: string): Expectation {
  const text = roundTrip(line);
  if (text.trim() === '' && text.charCodeAt(0) <= 32) return { kind: 'none' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'null' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'null' };
  const frame = value as Record<string, unknown>;
  if ('method' in frame) {
    if (frame.id === undefined) {
      const ok =
        typeof frame.method === 'string' &&
        frame.jsonrpc === '2.0' &&
        (frame.params === undefined || frame.params === null || typeof frame.params === 'object');
      return ok ? { kind: 'none' } : { kind: 'null' };
    }
    return isValidId(frame.id) ? { kind: 'id', key: JSON.stringify(frame.id) } : { kind: 'null' };
  }
  if ('id' in frame || 'result' in frame || 'error' in frame) return { kind: 'none' };
  return { kind: 'null' };
}

const methods = fc.constantFrom(
  'echo',
  'fail',
  'slow',
  'bigint',
  'unknown/method',
  '$/cancel_request',
  'note',
);
const weirdValue = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', '2.0', '1.0', [], {}, [1, 2], { a: 1 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A frame generator; `n` makes request ids unique. */
function frameArbitrary(n: number): fc.Arbitrary<string> {
  const id = fc.constantFrom(`id-${n}`, 1_000_000 + n);
  const request = fc
    .record({ id, method: methods, params: fc.option(weirdValue, { nil: undefined }) })
    .map((r) => JSON.stringify({ jsonrpc: '2.0', ...r }));
  const mutated = fc
    .record({
      id: fc.oneof(id, weirdValue),
      method: fc.oneof(methods, weirdValue),
      jsonrpc: fc.oneof(fc.constant('2.0'), weirdValue),
      params: weirdValue,
      drop: fc.subarray(['id', 'method', 'jsonrpc', 'params']),
      extra: fc.option(fc.constantFrom('result', 'error'), { nil: undefined }),
    })
    .map(({ drop, extra, ...fields }) => {
      const frame: Record<string, unknown> = { ...fields };
      for (const key of drop) delete frame[key];
      if (extra) frame[extra] = { code: 1, message: 'x' };
      return JSON.stringify(frame);
    });
  const cancel = fc
    .constantFrom(`id-${n - 1}`, 1_000_000 + n - 1, 'nope')
    .map((requestId) =>
      JSON.stringify({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId } }),
    );
  const response = fc
    .record({ id: fc.oneof(fc.nat(), weirdValue), result: weirdValue })
    .map((r) => JSON.stringify({ jsonrpc: '2.0', ...r }));
  const junk = fc
    .array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 40 })
    .map((points) => String.fromCodePoint(...points).replace(/[\r\n\uFEFF]/g, ' '))
    .filter((s) => s.length > 0);
  const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null');
  const truncated = request.map((text) => text.slice(0, Math.max(1, text.length - 3)));
  return fc.oneof(request, mutated, cancel, response, junk, json, truncated);
}

const scenario = fc
  .integer({ min: 1, max: 30 })
  .chain((count) =>
    fc.tuple(
      fc.tuple(...Array.from({ length: count }, (_, i) => frameArbitrary(i + 1))),
      fc.integer({ min: 1, max: 97 }),
    ),
  );

describe('engine robustness (property)', () => {
  it('never crashes, answers each request-shaped frame exactly once, and keeps working', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ([lines, chunkBytes]) => {
        const { connection, peer } = connectToRawPeer({}, { maxChunkBytes: chunkBytes });
        connection.onRequest('echo', (params) => params);
        connection.onRequest('fail', () => {
          throw new Error('handler failure');
        });
        connection.onRequest('slow', async (params, ctx) => {
          await Promise.resolve();
          await Promise.resolve();
          if (ctx.signal.aborted) throw ctx.signal.reason;
          return params;
        });
        connection.onRequest('bigint', () => 1n);
        connection.onNotification('note', () => Promise.reject(new Error('notification failure')));
        connection.start();

        const expected = lines.map(expectedReply);
        for (const line of lines) peer.sendRaw(line + '\n');
        const total = expected.filter((e) => e.kind !== 'none').length;
        peer.send({ jsonrpc: '2.0', id: 'final', method: 'echo', params: { still: 'alive' } });
        const frames = await peer.waitForFrames(total + 1);
        // Anything extra would arrive before the answer to a later request.
        peer.send({ jsonrpc: '2.0', id: 'final-2', method: 'echo', params: [] });
        await peer.waitForFrames(total + 2);
        const replies = peer.frames.filter((f) => f.id !== 'final' && f.id !== 'final-2');

        expect(frames.find((f) => f.id === 'final')).toEqual({
          jsonrpc: '2.0',
          id: 'final',
          result: { still: 'alive' },
        });
        expect(peer.frames).toHaveLength(total + 2);
        const count = (list: string[]) =>
          list.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
        const expectedIds = count(expected.flatMap((e) => (e.kind === 'id' ? [e.key] : [])));
        const actualIds = count(replies.filter((f) => f.id !== null).map((f) => JSON.stringify(f.id)));
        expect(actualIds).toEqual(expectedIds);
        expect(replies.filter((f) => f.id === null)).toHaveLength(
          expected.filter((e) => e.kind === 'null').length,
        );
        for (const reply of replies) {
          expect(reply.jsonrpc).toBe('2.0');
          expect('result' in reply !== 'error' in reply).toBe(true);
        }
        expect(connection.isClosed).toBe(false);
        await connection.close();
      }),
      { seed: 20260401, numRuns: 150 },
    );
  });
});
