import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RunOutput } from './run-output.js';

/** A writable that takes chunks only while `flowing`, recording each underlying write. */
function slowStream(highWaterMark = 1024) {
  const writes: string[] = [];
  const held: (() => void)[] = [];
  const state = { flowing: true };
  const stream = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string, _encoding, callback) {
      writes.push(chunk);
      if (state.flowing) callback();
      else held.push(callback);
    },
  });
  const resume = (): void => {
    state.flowing = true;
    for (const callback of held.splice(0)) callback();
  };
  return { stream, writes, state, resume };
}

describe('RunOutput', () => {
  it('writes each stream once per turn of the event loop, in the order the text was produced', async () => {
    const out = slowStream();
    const err = slowStream();
    const order: string[] = [];
    const output = new RunOutput(
      { write: (text: string) => (order.push(`out:${text}`), out.stream.write(text)) },
      { write: (text: string) => (order.push(`err:${text}`), err.stream.write(text)) },
    );
    for (let i = 0; i < 100; i++) output.out(`${i} `);
    output.err('note\n');
    output.out('more');
    expect(order).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([
      `out:${Array.from({ length: 100 }, (_, i) => `${i} `).join('')}`,
      'err:note\n',
      'out:more',
    ]);
  });

  it('reports pressure while a stream does not take its text, and releases it on drain', async () => {
    const out = slowStream(16);
    const output = new RunOutput(out.stream, slowStream().stream);
    out.state.flowing = false;
    output.out('x'.repeat(100));
    output.flush();
    const pressure = output.pressure();
    expect(pressure).toBeInstanceOf(Promise);
    let released = false;
    void pressure?.then(() => (released = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toBe(false);
    out.resume();
    await pressure;
    expect(output.pressure()).toBeUndefined();
    expect(out.stream.listenerCount('drain')).toBe(0);
    expect(out.stream.listenerCount('close')).toBe(0);
  });

  it('settle(maxWaitMs) gives up on a reader that never reads, dropping what it holds', async () => {
    const out = slowStream(16);
    const output = new RunOutput(out.stream, slowStream().stream);
    out.state.flowing = false;
    output.out('x'.repeat(100));
    await output.settle(10);
    expect(out.stream.destroyed).toBe(true);
  });

  it('writes a long text slice by slice, each once the stream took the previous, and what follows after it', async () => {
    const out = slowStream(16 * 1024);
    out.state.flowing = false;
    // What RunOutput hands the stream, write by write.
    const handed: string[] = [];
    const target = {
      write: (text: string) => (handed.push(text), out.stream.write(text)),
      once: (event: string, listener: () => void) => out.stream.once(event, listener),
      off: (event: string, listener: () => void) => out.stream.off(event, listener),
    };
    const output = new RunOutput(target, slowStream().stream);
    // A surrogate pair straddles the first slice boundary (1 MiB): it must not be split.
    const long = 'a'.repeat(1024 * 1024 - 1) + '😀' + 'b'.repeat(1024 * 1024);
    output.out('before ');
    output.out(long);
    output.out(' after');
    output.flush();
    // The text before it and the first slice only: the stream asked to wait.
    expect(handed).toEqual(['before ', long.slice(0, 1024 * 1024 - 1)]);
    const pressure = output.pressure();
    expect(pressure).toBeDefined();
    out.state.flowing = true;
    out.resume();
    await pressure;
    expect(handed.join('')).toBe(`before ${long} after`);
    expect(out.writes.join('')).toBe(`before ${long} after`);
    expect(handed.length).toBe(5);
    expect(Math.max(...handed.map((w) => w.length))).toBeLessThanOrEqual(1024 * 1024);
  });
});
