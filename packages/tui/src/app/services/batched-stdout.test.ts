import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CLEAR_SCREEN } from '../screen.js';
import { batchedStdout, keepScrollback } from './batched-stdout.js';

function sink(): { stream: NodeJS.WriteStream; written: () => string } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return { stream: stream as unknown as NodeJS.WriteStream, written: () => chunks.join('') };
}

describe('batchedStdout', () => {
  it('joins the writes of one tick into one write', async () => {
    const { stream, written } = sink();
    const terminal = batchedStdout(stream);
    terminal.write('a');
    terminal.write('b');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(written()).toBe('ab');
  });

  it('keeps the scrollback when Ink clears the terminal before a frame as tall as the screen', async () => {
    const { stream, written } = sink();
    const terminal = batchedStdout(stream, '', CLEAR_SCREEN);
    terminal.write('\x1b[?2026h');
    terminal.write('\x1b[2J\x1b[3J\x1b[Hframe\n');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(written()).toBe('\x1b[?2026h\x1b[2J\x1b[Hframe\n');
    expect(written()).not.toContain('\x1b[3J');
  });

  it("passes the UI's own clear (before it prints the history again) unchanged", async () => {
    const { stream, written } = sink();
    const terminal = batchedStdout(stream, '', CLEAR_SCREEN);
    terminal.write(CLEAR_SCREEN);
    terminal.write('history\n');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(written()).toBe(`${CLEAR_SCREEN}history\n`);
  });

  it('changes nothing else', () => {
    expect(keepScrollback('\x1b[2K\x1b[1Aline', CLEAR_SCREEN)).toBe('\x1b[2K\x1b[1Aline');
  });
});
