import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TINY_GIF, TINY_PNG } from '../../test-support/images.js';
import { readImageFiles, sniffImageType } from './image-files.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acp-images-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('sniffImageType', () => {
  it('knows PNG, JPEG, GIF and WebP by their magic bytes', () => {
    expect(sniffImageType(TINY_PNG)).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(sniffImageType(TINY_GIF)).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('hello'))).toBeUndefined();
    expect(sniffImageType(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('readImageFiles', () => {
  it('reads images with the type of their data and their path', async () => {
    writeFileSync(join(dir, 'shot.png'), TINY_PNG);
    writeFileSync(join(dir, 'really-a-gif.jpg'), TINY_GIF);
    const result = await readImageFiles([join(dir, 'shot.png'), join(dir, 'really-a-gif.jpg')]);
    expect(result).toEqual({
      ok: true,
      images: [
        {
          label: 'shot.png',
          mimeType: 'image/png',
          data: TINY_PNG.toString('base64'),
          bytes: 70,
          path: join(dir, 'shot.png'),
        },
        {
          label: 'really-a-gif.jpg',
          mimeType: 'image/gif',
          data: TINY_GIF.toString('base64'),
          bytes: 35,
          path: join(dir, 'really-a-gif.jpg'),
        },
      ],
    });
  });

  it('refuses all when one file is missing (quietly), not an image, or too large (saying why)', async () => {
    writeFileSync(join(dir, 'shot.png'), TINY_PNG);
    writeFileSync(join(dir, 'notes.png'), 'just text\n');
    expect(await readImageFiles([join(dir, 'shot.png'), join(dir, 'missing.png')])).toEqual({ ok: false });
    expect(await readImageFiles([dir + '/'])).toEqual({ ok: false });
    expect(await readImageFiles([join(dir, 'notes.png')])).toEqual({
      ok: false,
      message: 'notes.png is not a PNG, JPEG, GIF or WebP image',
    });
    expect(await readImageFiles([join(dir, 'shot.png')], { maxBytes: 64 })).toEqual({
      ok: false,
      message: 'shot.png is 70 B: images are limited to 64 B',
    });
  });
});
