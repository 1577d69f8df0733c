import { describe, expect, it } from 'vitest';
import { PartialLine, type CompletedLine } from './partial-line.js';

const READ = 65_536;
/** 4 MB of text in lines of 80 characters: every line break is escaped on the wire. */
const TEXT = `${'x'.repeat(79)}\n`.repeat(50_000);

function updateLine(text: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's', update: { content: { type: 'text', text } } },
  });
}

/** Feeds `line` in reads of 64 KiB; `each` sees the line after every read. */
function feed(line: PartialLine, text: string, each?: (at: number) => void): void {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += READ) {
    line.push(bytes.subarray(at, at + READ));
    each?.(at + READ);
  }
}

function parsed(done: CompletedLine) {
  if (done.kind !== 'parsed') throw new Error(`expected a parsed line, got ${done.kind}`);
  return done;
}

describe('PartialLine', () => {
  it('keeps no read piece of a long line once it parses it, unless its text is to be kept', () => {
    const line = updateLine(TEXT);
    const released = new PartialLine(true, false);
    const kept = new PartialLine(true, true);
    let most = 0;
    feed(released, line, (at) => {
      // From 1 MiB on the parser has the line: what is kept as read is its short rest.
      if (at > 2 * 1024 * 1024) most = Math.max(most, released.keptChars);
    });
    feed(kept, line);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThan(200);
    expect(kept.keptChars).toBeGreaterThanOrEqual(line.length);
    const withoutText = parsed(released.take(new Uint8Array(0)));
    expect(withoutText.text).toBeUndefined();
    expect(withoutText.line.length).toBe(line.length);
    // Compared as booleans: a failing comparison would print megabytes.
    expect(JSON.stringify(withoutText.line.value) === line).toBe(true);
    expect(withoutText.line.outline.length).toBeLessThan(300);
    const withText = parsed(kept.take(new Uint8Array(0)));
    expect(withText.text === line).toBe(true);
  });

  it('leaves a CRLF ending out of a parsed line, wherever the CR falls', () => {
    const line = updateLine(TEXT);
    for (const keepText of [false, true]) {
      const early = new PartialLine(true, keepText);
      feed(early, `${line}\r`);
      const a = parsed(early.take(new Uint8Array(0)));
      const late = new PartialLine(true, keepText);
      feed(late, line);
      const b = parsed(late.take(new Uint8Array([13])));
      for (const done of [a, b]) {
        expect(done.line.length).toBe(line.length);
        expect(JSON.stringify(done.line.value) === line).toBe(true);
        if (keepText) expect(done.text === line).toBe(true);
      }
    }
  });

  it('hands a long line it cannot parse on as text: the same JSON, or the same error', () => {
    const lines = [
      // A malformed escape after 2 MB of decoded text: JSON.parse must still refuse it.
      `{"a":"${JSON.stringify(TEXT).slice(1, -1)}\\x"}`,
      // A long key: valid JSON the parser does not place.
      JSON.stringify({ [TEXT]: 1, b: TEXT }),
      // Not JSON at all (a log line), a raw control character in a long value, an unended string.
      `log: ${'y'.repeat(2_000_000)}`,
      `{"a":"${'z'.repeat(2_000_000)}\u0001"}`,
      `{"a":"${JSON.stringify(TEXT).slice(1, -1)}`,
    ];
    for (const [index, text] of lines.entries()) {
      for (const keepText of [false, true]) {
        const line = new PartialLine(true, keepText);
        feed(line, text);
        const done = line.take(new Uint8Array(0));
        if (done.kind !== 'text') throw new Error(`line ${index}: expected text, got ${done.kind}`);
        let expected: string | undefined;
        let got: string | undefined;
        try {
          expected = JSON.stringify(JSON.parse(text));
        } catch (error) {
          expected = (error as Error).name;
        }
        try {
          got = JSON.stringify(JSON.parse(done.text));
        } catch (error) {
          got = (error as Error).name;
        }
        expect(got === expected, `line ${index}, keepText ${keepText}`).toBe(true);
        if (keepText) expect(done.text === text, `line ${index}`).toBe(true);
      }
    }
  });
});
