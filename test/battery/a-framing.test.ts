/**
 * A1, A2, A5. Framing, in this process, against both readers (our client's and our agent's): any
 * chunk boundaries, junk lines, and the size limit's boundary. A7–A10 are in a-text.test.ts, the
 * wire fuzz into real processes (A3, A4) in a-wire.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { figure } from './support/figures.js';
import { assertReaderAlive, READERS } from './support/readers.js';
import { COUNTS, seedOf, timeoutMs } from './support/size.js';
import { eventually } from './support/channel.js';

const encoder = new TextEncoder();

type Frame = Record<string, unknown>;

/** A message each reader hands to its handler, and what the handler must receive. */
function messageFor(
  side: 'client' | 'agent',
  sessionId: string,
  text: string,
): { json: string; expected: unknown } {
  if (side === 'client') {
    const params = {
      sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
    };
    return { json: JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params }), expected: params };
  }
  const params = { sessionId, _meta: { text } };
  return { json: JSON.stringify({ jsonrpc: '2.0', method: 'session/cancel', params }), expected: params };
}

/** Cuts `bytes` at `cuts` (any positions, also inside UTF-8 and between CR and LF) plus empty chunks. */
function chunked(bytes: Uint8Array, cuts: readonly number[], empties: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  for (const at of empties) chunks.splice(at % (chunks.length + 1), 0, new Uint8Array(0));
  return chunks;
}

describe('A1 any chunk boundaries', () => {
  for (const { side, make } of READERS) {
    it(
      `${side} reader: same messages, same order`,
      async () => {
        const seed = seedOf(101 + (side === 'client' ? 0 : 1));
        let runs = 0;
        let maxChunks = 0;
        const scenario = fc.record({
          messages: fc.array(
            fc.record({
              id: fc.string({ unit: 'binary', maxLength: 12 }),
              text: fc.string({ unit: 'binary', maxLength: 40 }),
            }),
            {
              minLength: 1,
              maxLength: 12,
            },
          ),
          crlf: fc.array(fc.boolean(), { maxLength: 12 }),
          cuts: fc.array(fc.nat(), { maxLength: 40 }),
          crCuts: fc.boolean(),
          empties: fc.array(fc.nat(), { maxLength: 6 }),
        });
        await fc.assert(
          fc.asyncProperty(scenario, async ({ messages, crlf, cuts, crCuts, empties }) => {
            runs++;
            const reader = make();
            const built = messages.map((m) => messageFor(side, m.id, m.text));
            const stream = built.map((m, i) => m.json + (crlf[i] ? '\r\n' : '\n')).join('');
            const bytes = encoder.encode(stream);
            const extra = crCuts ? [...bytes.keys()].filter((i) => bytes[i - 1] === 13) : [];
            const chunks = chunked(bytes, [...cuts, ...extra], empties);
            maxChunks = Math.max(maxChunks, chunks.length);
            for (const chunk of chunks) reader.channel.feed(chunk);
            await eventually(() => reader.received.length >= built.length, 'every message handled');
            expect(reader.received).toEqual(built.map((m) => m.expected));
            expect(reader.channel.out).toEqual([]);
            await reader.close();
          }),
          { seed, numRuns: COUNTS.propertyRuns },
        );
        figure({
          case: 'A1',
          name: `${side} reader: runs (max chunks per run ${maxChunks})`,
          value: runs,
          target: '≥ 1,000 runs, 0 failures',
          pass: runs >= 1000,
          seed,
        });
      },
      timeoutMs(120_000, 600_000),
    );
  }
});

/** Lines that are not JSON, never blank, never containing a line break or a BOM. */
const junkLine = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 30 })
  .map((s) => s.replace(/[\r\n\uFEFF]/g, '#'))
  .filter((s) => {
    if (s.trim() === '') return false;
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  });
const ENVELOPE_KEYS = new Set(['jsonrpc', 'method', 'id', 'result', 'error']);
type Line = { text: string; kind: 'junk' | 'invalid' | 'blank' };
const lineArbitrary: fc.Arbitrary<Line> = fc.oneof(
  junkLine.map((text) => ({ text, kind: 'junk' as const })),
  fc
    .oneof(
      fc.constant('null'),
      fc.integer().map(String),
      fc.string().map((s) => JSON.stringify(s)),
      fc.boolean().map(String),
    )
    .map((text) => ({ text, kind: 'invalid' as const })),
  fc
    .array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 })
    .map((v) => ({ text: JSON.stringify(v), kind: 'invalid' as const })),
  fc
    .dictionary(
      fc.string({ maxLength: 8 }).filter((k) => !ENVELOPE_KEYS.has(k)),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 4 },
    )
    .map((v) => ({ text: JSON.stringify(v), kind: 'invalid' as const })),
  fc.constantFrom('', ' ', '\t', ' \t  ').map((text) => ({ text, kind: 'blank' as const })),
);

describe('A2 junk lines, scalars, arrays, objects', () => {
  for (const { side, make } of READERS) {
    it(
      `${side} reader: one -32700 per junk line, one -32600 per scalar/array/object, nothing for blank lines`,
      async () => {
        const seed = seedOf(201 + (side === 'client' ? 0 : 1));
        let lines = 0;
        let mismatches = 0;
        const replies: Record<string, number> = {};
        await fc.assert(
          fc.asyncProperty(fc.array(lineArbitrary, { maxLength: 16 }), async (list) => {
            const reader = make();
            for (const line of list) reader.channel.feedText(line.text + '\n');
            lines += list.length;
            await assertReaderAlive(reader);
            const got = reader.channel.out.filter((f) => (f as Frame).id !== 'live') as Frame[];
            const codes = got.map((f) => (f.error as Frame | undefined)?.code);
            for (const code of codes) replies[String(code)] = (replies[String(code)] ?? 0) + 1;
            const want = list.flatMap((l) =>
              l.kind === 'junk' ? [-32700] : l.kind === 'invalid' ? [-32600] : [],
            );
            if (JSON.stringify(codes) !== JSON.stringify(want)) mismatches++;
            expect(codes).toEqual(want);
            expect(got.every((f) => f.id === null)).toBe(true);
            // Error data never echoes the line.
            for (const text of reader.channel.lines) expect(text.length).toBeLessThanOrEqual(1024);
            await reader.close();
          }),
          { seed, numRuns: COUNTS.propertyRuns },
        );
        figure({
          case: 'A2',
          name: `${side} reader: lines (replies by code ${JSON.stringify(replies)})`,
          value: lines,
          seed,
        });
        figure({
          case: 'A2',
          name: `${side} reader: mismatches`,
          value: mismatches,
          target: '0',
          pass: mismatches === 0,
          seed,
        });
      },
      timeoutMs(120_000, 600_000),
    );

    it(`${side} reader: a storm of 10,000 junk lines gets a bounded number of replies and the reader lives`, async () => {
      const reader = make();
      reader.channel.feedText('not json at all\n'.repeat(10_000));
      await assertReaderAlive(reader);
      const replies = reader.channel.out.length - 1;
      figure({
        case: 'A2',
        name: `${side} reader: replies to 10,000 junk lines`,
        value: replies,
        target: '≤ 100 (no storm)',
        pass: replies <= 100,
      });
      expect(replies).toBeLessThanOrEqual(100);
      await reader.close();
    });
  }
});

describe('A5 the size limit boundary (configurable limit)', () => {
  const LIMIT = 4096;
  for (const { side, make } of READERS) {
    const line = (bytes: number): string => {
      const { json } = messageFor(side, 's', 'x');
      const padded = json.replace('"x"', `"${'x'.repeat(bytes - json.length + 1)}"`);
      expect(encoder.encode(padded).length).toBe(bytes);
      return padded;
    };
    for (const ending of ['\n', '\r\n']) {
      const name = ending === '\n' ? 'LF' : 'CRLF';
      it(`${side} reader: a line of exactly the limit is accepted (${name})`, async () => {
        const reader = make({ maxMessageBytes: LIMIT });
        reader.channel.feedText(line(LIMIT) + ending);
        await eventually(
          () => reader.received.length === 1 || reader.connection.isClosed,
          'the line handled',
        );
        const accepted = !reader.connection.isClosed && reader.received.length === 1;
        figure({
          case: 'A5',
          name: `${side} reader: line of exactly the limit + ${name} accepted`,
          value: accepted,
          target: 'true',
          pass: accepted,
        });
        expect(reader.connection.isClosed).toBe(false);
        expect(reader.received).toHaveLength(1);
        await assertReaderAlive(reader);
        await reader.close();
      });
    }
    it(`${side} reader: limit + 1 is fatal: the connection closes with MESSAGE_TOO_LARGE`, async () => {
      const reader = make({ maxMessageBytes: LIMIT });
      reader.channel.feedText(line(LIMIT + 1) + '\n');
      const reason = await reader.connection.closed;
      expect(reason.code).toBe('MESSAGE_TOO_LARGE');
      expect(reader.received).toHaveLength(0);
      expect(
        reader.channel.out.filter((f) => ((f as Frame).error as Frame | undefined)?.code === -32700),
      ).toEqual([]);
      figure({
        case: 'A5',
        name: `${side} reader: limit + 1 fatal`,
        value: 'pass',
        target: 'fatal MESSAGE_TOO_LARGE',
        pass: true,
      });
    });
  }
});
