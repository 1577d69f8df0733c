import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appendTexts, JsonStringBody, LONG_TEXT_CHARS, textsLength } from './append-texts.js';
import { LineBatch } from './line-batch.js';

describe('LineBatch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands many lines over in one batch after the interval', () => {
    vi.useFakeTimers();
    const taken: string[] = [];
    const batch: LineBatch = new LineBatch(() => taken.push(batch.take().join('')), 100, 1024);
    for (let i = 0; i < 50; i++) batch.push(`${i}\n`);
    expect(taken).toEqual([]);
    vi.advanceTimersByTime(99);
    expect(taken).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(taken).toHaveLength(1);
    expect(taken[0]?.split('\n')).toHaveLength(51);
    vi.advanceTimersByTime(1000);
    expect(taken).toHaveLength(1);
  });

  it('by default, takes a streamed answer read every 100 ms in one batch per half second', () => {
    vi.useFakeTimers();
    const taken: string[] = [];
    const batch: LineBatch = new LineBatch(() => taken.push(batch.take().join('')));
    for (let read = 0; read < 10; read++) {
      for (let i = 0; i < 25; i++) batch.push(`${read}.${i}\n`);
      vi.advanceTimersByTime(100);
    }
    expect(taken).toHaveLength(2);
    expect(taken.join('').split('\n')).toHaveLength(251);
  });

  it('hands over at once past the size limit, and take() empties the queue', () => {
    vi.useFakeTimers();
    const taken: string[] = [];
    const batch: LineBatch = new LineBatch(() => taken.push(batch.take().join('')), 100, 10);
    batch.push('12345\n');
    batch.push('67890\n');
    expect(taken).toEqual(['12345\n67890\n']);
    batch.push('x\n');
    expect(batch.take()).toEqual(['x\n']);
    expect(batch.take()).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(taken).toHaveLength(1);
  });

  it('hands a long text over by itself, between runs of the short ones', () => {
    const batch = new LineBatch(() => undefined, 100, 10 * LONG_TEXT_CHARS);
    const long = 'x'.repeat(LONG_TEXT_CHARS);
    for (const text of ['a\n', 'b', long, '\n', 'c\n']) batch.push(text);
    const texts = batch.take();
    expect(texts.map((t) => t.length)).toEqual([3, LONG_TEXT_CHARS, 3]);
    expect(texts.join('')).toBe(`a\nb${long}\nc\n`);
    expect(batch.backlog).toBe(textsLength(texts));
  });
});

describe('appendTexts', () => {
  it('writes a long text in slices, never between the halves of a surrogate pair', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'line-batch-'));
    try {
      // A pair straddles every slice boundary: a split one would be written as two U+FFFD.
      const long = 'y'.repeat(LONG_TEXT_CHARS - 1) + '😀'.repeat(LONG_TEXT_CHARS / 2 + 3);
      const handle = await open(join(dir, 'out'), 'a');
      await appendTexts(handle, ['head\n', long, '\n']);
      await handle.close();
      expect(readFileSync(join(dir, 'out'), 'utf8')).toBe(`head\n${long}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes a JSON string body escaped slice by slice, as escaping it whole would', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'line-batch-'));
    try {
      // Quotes, backslashes, control characters, a pair across each slice boundary, lone surrogates.
      const long =
        'a"b\\c\n\u0001'.repeat(1000) +
        'z'.repeat(LONG_TEXT_CHARS - 7001) +
        '😀'.repeat(LONG_TEXT_CHARS / 2 + 3) +
        '\ud800x\udc00';
      const body = new JsonStringBody(long);
      expect(body.length).toBe(long.length);
      const handle = await open(join(dir, 'out'), 'a');
      await appendTexts(handle, ['{"text":"', body, '"}\n']);
      await handle.close();
      const written = readFileSync(join(dir, 'out'), 'utf8');
      expect(written).toBe(`${JSON.stringify({ text: long })}\n`);
      expect((JSON.parse(written) as { text: string }).text).toBe(long);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('hands a JSON string body over by itself, however short', () => {
    const batch = new LineBatch(() => undefined);
    batch.push('{"text":"');
    batch.push(new JsonStringBody('x'));
    batch.push('"}\n');
    const texts = batch.take();
    expect(texts).toHaveLength(3);
    expect(texts[1]).toBeInstanceOf(JsonStringBody);
  });
});
