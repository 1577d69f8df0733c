import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeStreamChannel } from './stream-channel.js';
import { readStopper } from './read-stop.js';
import { fixture } from './test-support/helpers.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

/** A child that writes 5,000 bytes to its stdout each time it reads a line, then "written" to stderr. */
function writer() {
  const child = spawn(process.execPath, [fixture('write-on-cue.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let cues = 0;
  let waiting: (() => void) | undefined;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    cues += text.split('written\n').length - 1;
    waiting?.();
  });
  /** Asks for a round and resolves once it is in the pipe. */
  const round = (n: number) =>
    new Promise<void>((resolve) => {
      waiting = () => {
        if (cues >= n) resolve();
      };
      child.stdin.write('go\n');
    });
  return { child, round };
}

describe('a paused channel over a pipe', () => {
  it('leaves what the peer writes in the pipe until it resumes, then reads it in one go', async () => {
    const { child, round } = writer();
    const channel = nodeStreamChannel(child.stdout!, child.stdin!);
    const chunks: string[] = [];
    let arrived: (() => void) | undefined;
    channel.start({
      data: (chunk) => {
        chunks.push(Buffer.from(chunk).toString());
        arrived?.();
      },
      end: () => undefined,
    });
    channel.pause();
    await round(1);
    // Another poll of the event loop: a socket still reading would have read the pipe by now.
    await turn();
    await turn();
    // Read pacing rests to save the wakeups of reading: nothing may have been read meanwhile.
    expect(child.stdout!.readableLength).toBe(0);
    expect(chunks).toEqual([]);

    const all = new Promise<void>((resolve) => {
      arrived = () => {
        if (chunks.join('').length >= 5000) resolve();
      };
    });
    channel.resume();
    await all;
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatch(/^round 1 line 0\.+\n/);

    // Flowing again: the next round arrives without a resume.
    const next = new Promise<void>((resolve) => {
      arrived = () => {
        if (chunks.join('').length >= 10_000) resolve();
      };
    });
    await round(2);
    await next;
    expect(chunks.join('')).toContain('round 2 line 49');
  });

  it('is only for sockets: other streams read when asked', () => {
    expect(readStopper(new PassThrough())).toBeUndefined();
  });
});
