import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientError } from '../errors.js';
import { tempDir } from '../test-support/harness.js';
import { continuityBlock } from './continuity.js';
import type { SessionEvent } from './events.js';
import { buildPrompt } from './prompt.js';
import { reduceSessionEvents } from './reducer.js';
import { initialSessionState } from './state.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeFile(join(dir, 'a.ts'), 'export const a = 1;\n');
  await writeFile(join(dir, 'pic.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
});
afterEach(() => cleanup());

describe('buildPrompt', () => {
  it('embeds files with embeddedContext and links them otherwise; commands become text', async () => {
    const uri = pathToFileURL(join(dir, 'a.ts')).href;
    const embedded = await buildPrompt(
      ['look', { type: 'file', path: 'a.ts' }, { type: 'command', name: 'review', input: 'now' }],
      { embeddedContext: true },
      { cwd: dir },
    );
    expect(embedded.prompt).toEqual([
      { type: 'text', text: 'look' },
      { type: 'resource', resource: { uri, text: 'export const a = 1;\n' } },
      { type: 'text', text: '/review now' },
    ]);
    const linked = await buildPrompt([{ type: 'file', path: 'a.ts' }], {}, { cwd: dir });
    expect(linked.prompt).toEqual([{ type: 'resource_link', uri, name: 'a.ts', size: 20 }]);
  });

  it('sends images only with the image capability', async () => {
    const withImages = await buildPrompt([{ type: 'image', path: 'pic.png' }], { image: true }, { cwd: dir });
    expect(withImages.prompt[0]).toMatchObject({
      type: 'image',
      mimeType: 'image/png',
      data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]).toString('base64'),
    });
    const without = await buildPrompt([{ type: 'image', path: 'pic.png' }], {}, { cwd: dir });
    expect(without.prompt[0]).toMatchObject({ type: 'resource_link', name: 'pic.png' });
    expect(without.notes).toEqual(['pic.png sent as a link: the agent does not accept images']);
    const raw = await buildPrompt(
      [{ type: 'image', data: 'AA==', mimeType: 'image/png' }],
      {},
      { cwd: dir },
    ).catch((e: unknown) => e);
    expect((raw as ClientError).code).toBe('CAPABILITY_NOT_SUPPORTED');
  });

  it('refuses an image over the size limit, read from a file or given as data, saying its size', async () => {
    const big = await buildPrompt(
      [{ type: 'image', path: 'pic.png' }],
      { image: true },
      {
        cwd: dir,
        maxImageBytes: 4,
      },
    ).catch((e: unknown) => e);
    expect(big).toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: 'pic.png is 7 B: images are limited to 4 B',
    });
    const data = Buffer.alloc(3 * 1024 * 1024).toString('base64');
    const given = await buildPrompt(
      [{ type: 'image', data, mimeType: 'image/png' }],
      { image: true },
      {
        cwd: dir,
        maxImageBytes: 2 * 1024 * 1024,
      },
    ).catch((e: unknown) => e);
    expect(given).toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: 'the image is 3 MB: images are limited to 2 MB',
      details: { size: 3 * 1024 * 1024, limit: 2 * 1024 * 1024 },
    });
    const within = await buildPrompt(
      [{ type: 'image', data, mimeType: 'image/png', path: 'pic.png' }],
      { image: true },
      {
        cwd: dir,
      },
    );
    expect(within.prompt[0]).toMatchObject({
      type: 'image',
      data,
      uri: pathToFileURL(join(dir, 'pic.png')).href,
    });
  });

  it('links binary files even with embeddedContext, and turns embedded blocks into links without it', async () => {
    const binary = await buildPrompt(
      [{ type: 'file', path: 'pic.png' }],
      { embeddedContext: true },
      { cwd: dir },
    );
    expect(binary.prompt[0]).toMatchObject({ type: 'resource_link' });
    const adapted = await buildPrompt(
      [{ type: 'block', block: { type: 'resource', resource: { uri: 'file:///x/y.md', text: 't' } } }],
      {},
      { cwd: dir },
    );
    expect(adapted.prompt).toEqual([{ type: 'resource_link', uri: 'file:///x/y.md', name: 'y.md' }]);
  });
});

describe('continuityBlock', () => {
  it('summarises the transcript, newest part kept', () => {
    const events: SessionEvent[] = [
      { type: 'prompt', at: 1, turn: 1, prompt: [{ type: 'text', text: 'fix the parser' }] },
      {
        type: 'update',
        at: 1,
        update: {
          kind: 'tool_call',
          toolCallId: 't',
          newInstance: true,
          patch: {
            title: 'Read parser.ts',
            kind: 'read',
            status: 'completed',
            locations: [{ path: '/p/parser.ts' }],
          },
        },
      },
      {
        type: 'update',
        at: 1,
        update: { kind: 'message_chunk', role: 'agent', content: { type: 'text', text: 'Fixed it.' } },
      },
      { type: 'turn_end', at: 1, turn: 1, stopReason: 'end_turn' },
    ];
    const state = reduceSessionEvents(initialSessionState('s', '/p'), events);
    const block = continuityBlock(state, { fromAgent: 'claude' }) as { text: string };
    expect(block.text).toContain('with claude');
    expect(block.text).toContain('User: fix the parser');
    expect(block.text).toContain('[tool read: Read parser.ts (/p/parser.ts) — completed]');
    expect(block.text).toContain('Assistant: Fixed it.');
    const short = continuityBlock(state, { maxChars: 20 }) as { text: string };
    expect(short.text).toContain('older parts omitted');
    expect(short.text).toContain('Fixed it.');
    expect(short.text).not.toContain('fix the parser');
  });
});
