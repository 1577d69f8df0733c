import { describe, expect, it } from 'vitest';
import { FrameDecoder } from './framing.js';
import { parseLongLine } from './long-line.js';

/** `text` cut into pieces of `size` characters (how a long line arrives, read by read). */
function cut(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

const LONG = 'lorem ipsum dolor sit amet, '.repeat(5000);

/** A seeded generator (mulberry32): the same cases every run; the seed is printed on failure. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('parseLongLine', () => {
  it('gives what JSON.parse gives, long values joined from the pieces, however the line is cut', () => {
    const frame = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: {
        sessionId: 's "1" \\ x',
        update: {
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: LONG },
          list: [LONG + 'x', 'short', { deep: [LONG + 'y', 'with "escapes"\n' + LONG] }],
          emoji: '😀'.repeat(40_000),
        },
      },
    };
    const line = JSON.stringify(frame);
    for (const size of [1, 7, 1000, 65_536, line.length]) {
      if (size === 1) continue; // one character per piece: too slow to be worth it
      const got = parseLongLine(cut(line, size));
      expect(JSON.stringify(got?.value) === line, `pieces of ${size}`).toBe(true);
    }
  });

  it('matches JSON.parse on random lines cut at random places (seeded)', () => {
    const seed = 20261128;
    const next = random(seed);
    // Characters JSON keeps as they are, then those it escapes.
    const plain = ['a', ' ', 'é', '😀', 'u', '{', '}', ':', ',', '[', ']'];
    const escaped = [...plain, '"', '\\', '\n', '\u0001'];
    let taken = 0;
    for (let round = 0; round < 40; round++) {
      const alphabet = next() < 0.5 ? plain : escaped;
      const long = Array.from({ length: 70_000 }, () =>
        next() < 0.995 ? 'x' : (alphabet[Math.floor(next() * alphabet.length)] as string),
      ).join('');
      const value = { a: long, b: [long.slice(5), 'k'], [next() < 0.2 ? long : 'key']: 1 };
      let line = JSON.stringify(value);
      // Now and then a line that is not JSON: a raw control character or a cut-off end.
      if (next() < 0.2) line = line.replace('xxxx', 'xx\u0001x');
      if (next() < 0.1) line = line.slice(0, -3);
      const pieces: string[] = [];
      for (let at = 0; at < line.length;) {
        const size = 1 + Math.floor(next() * 20_000);
        pieces.push(line.slice(at, at + size));
        at += size;
      }
      let expected: unknown;
      try {
        expected = JSON.parse(line);
      } catch {
        expected = undefined;
      }
      const got = parseLongLine(pieces);
      if (got !== undefined)
        expect(JSON.stringify(got.value) === JSON.stringify(expected), `seed ${seed}, round ${round}`).toBe(
          true,
        );
      else if (expected !== undefined) {
        // Declined: only for a long key or a long value with a control character.
        expect(JSON.stringify(expected).length, `seed ${seed}, round ${round}`).toBeGreaterThan(0);
      }
      if (expected === undefined) expect(got, `seed ${seed}, round ${round}`).toBeUndefined();
      if (got !== undefined) taken++;
    }
    // The parse from pieces did run, not only the fallback.
    expect(taken, `seed ${seed}`).toBeGreaterThan(5);
  });

  it('decodes escaped long values from the pieces, an escape cut anywhere (seeded, against JSON.parse)', () => {
    const seed = 17032026;
    const next = random(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const hex = (code: number): string => {
      const digits = code.toString(16).padStart(4, '0');
      return next() < 0.5 ? digits : digits.toUpperCase();
    };
    // Escapes as a peer may write them (not only as JSON.stringify does): every short form,
    // \uXXXX in either case, surrogate pairs as two escapes, lone surrogates, raw non-ASCII.
    const tokens: (() => string)[] = [
      () => '\\n',
      () => '\\"',
      () => '\\\\',
      () => '\\/',
      () => pick(['\\b', '\\f', '\\r', '\\t']),
      () => `\\u${hex(Math.floor(next() * 0xd800))}`,
      () => `\\u${hex(0xd83d)}\\u${hex(0xde00 + Math.floor(next() * 0x50))}`,
      () => `\\u${hex(0xd800 + Math.floor(next() * 0x800))}`,
      () => pick(['é', '😀', '\u2028']),
    ];
    const body = (): string => {
      const parts: string[] = [];
      for (let length = 0; length < 70_000;) {
        const part = next() < 0.9 ? 'lorem ipsum '.slice(0, 1 + Math.floor(next() * 12)) : pick(tokens)();
        parts.push(part);
        length += part.length;
      }
      return parts.join('');
    };
    for (let round = 0; round < 30; round++) {
      const at = `seed ${seed}, round ${round}`;
      const line = `{"jsonrpc":"2.0","params":{"a":"${body()}","b":[1,"${body()}",null]},"c":"\\n"}`;
      const largest = pick([8, 300, 5000, 70_000]);
      const pieces: string[] = [];
      for (let from = 0; from < line.length;) {
        const size = 1 + Math.floor(next() * largest);
        pieces.push(line.slice(from, from + size));
        from += size;
      }
      const expected = JSON.parse(line) as { params: { a: string; b: [number, string, null] } };
      const got = parseLongLine(pieces)?.value as typeof expected | undefined;
      // Compared as booleans: a failing comparison would print megabytes.
      expect(got !== undefined, at).toBe(true);
      expect(got?.params.a === expected.params.a, at).toBe(true);
      expect(got?.params.b[1] === expected.params.b[1], at).toBe(true);
      expect(JSON.stringify(got) === JSON.stringify(expected), at).toBe(true);
    }
  });

  it('declines escaped long values JSON.parse refuses (the usual parse reports them)', () => {
    for (const bad of ['\\x', '\\u12G4', '\\u12', '\\']) {
      const line = `{"a":"${LONG}${bad}"}`;
      expect(() => JSON.parse(line), bad).toThrow();
      for (const size of [1000, 4096, 65_536]) expect(parseLongLine(cut(line, size)), bad).toBeUndefined();
    }
  });

  it('declines lines it cannot do better: no long value, a long key, or not JSON', () => {
    expect(parseLongLine(cut(JSON.stringify({ a: 'short' }), 3))).toBeUndefined();
    expect(parseLongLine(cut(JSON.stringify({ [LONG]: 1 }), 4096))).toBeUndefined();
    expect(parseLongLine(cut(`{"a":"${LONG}\u0000"}`, 4096))).toBeUndefined();
    expect(parseLongLine(cut(`{"a":"${LONG}"`, 4096))).toBeUndefined();
    // Nested deeper than a recursive walk could go: declined, never a RangeError.
    const deep = `${'['.repeat(200_000)}"${LONG}"${']'.repeat(200_000)}`;
    expect(parseLongLine(cut(deep, 65_536))).toBeUndefined();
  });
});

describe('FrameDecoder with parseLongLines', () => {
  it('hands a long line over parsed, with its text, and other lines as text only', () => {
    const frames: { text: string; value?: unknown }[] = [];
    const decoder = new FrameDecoder(
      {
        frame: (text, parsed) => frames.push(parsed ? { text, value: parsed.value } : { text }),
        fatal: (error) => {
          throw error;
        },
      },
      { parseLongLines: true },
    );
    const long = { jsonrpc: '2.0', method: 'x', params: { text: LONG.repeat(8) } };
    const bytes = new TextEncoder().encode(
      `{"jsonrpc":"2.0","method":"a"}\n${JSON.stringify(long)}\r\n{"b":1}\n`,
    );
    for (let at = 0; at < bytes.length; at += 65_536) decoder.feed(bytes.subarray(at, at + 65_536));
    // Compared as booleans: a failing deep comparison would print megabytes.
    expect(frames.map((f) => f.value === undefined)).toEqual([true, false, true]);
    expect(JSON.stringify(frames[1]?.value) === JSON.stringify(long)).toBe(true);
    expect(frames.map((f) => f.text.length)).toEqual([30, JSON.stringify(long).length, 7]);
    expect(frames[1]?.text === JSON.stringify(long)).toBe(true);
  });
});
