import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TINY_GIF, TINY_PNG, writeFakeTool } from '../../test-support/images.js';
import { readClipboardImage } from './clipboard-image.js';

let dir: string;
let bin: string;
let log: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acp-clipboard-'));
  bin = join(dir, 'bin');
  log = join(dir, 'calls.log');
  writeFileSync(join(dir, 'tiny.png'), TINY_PNG);
  writeFileSync(join(dir, 'tiny.gif'), TINY_GIF);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The fake tools first on PATH (the shell still finds cat, printf, sleep). */
const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
  ...extra,
});

/** A fake xclip that logs its arguments and answers TARGETS and one type. */
function fakeXclip(targets: string, reads: Record<string, string>): void {
  const cases = Object.entries(reads)
    .map(([type, command]) => `  *"-t ${type} -o"*) ${command} ;;`)
    .join('\n');
  writeFakeTool(
    bin,
    'xclip',
    `echo "xclip $*" >> '${log}'\ncase "$*" in\n  *TARGETS*) printf '${targets}' ;;\n${cases}\n  *) exit 1 ;;\nesac`,
  );
}

describe('readClipboardImage', () => {
  it('reads a PNG with xclip on X11: lists the targets, then prints the image type', async () => {
    fakeXclip('TARGETS\\nUTF8_STRING\\nimage/png\\n', { 'image/png': `cat '${join(dir, 'tiny.png')}'` });
    const result = await readClipboardImage({ env: env({ DISPLAY: ':0' }), platform: 'linux' });
    expect(result).toEqual({
      ok: true,
      images: [{ label: 'clipboard', mimeType: 'image/png', data: TINY_PNG.toString('base64'), bytes: 70 }],
    });
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      'xclip -selection clipboard -t TARGETS -o',
      'xclip -selection clipboard -t image/png -o',
    ]);
  });

  it('prefers wl-paste on Wayland and takes the image type on offer, typed by its bytes', async () => {
    fakeXclip('image/png\\n', { 'image/png': `cat '${join(dir, 'tiny.png')}'` });
    writeFakeTool(
      bin,
      'wl-paste',
      `case "$*" in\n  --list-types) printf 'text/plain\\nimage/gif\\n' ;;\n  "--no-newline --type image/gif") cat '${join(dir, 'tiny.gif')}' ;;\n  *) exit 1 ;;\nesac`,
    );
    const result = await readClipboardImage({
      env: env({ WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' }),
      platform: 'linux',
    });
    expect(result).toMatchObject({ ok: true, images: [{ mimeType: 'image/gif', bytes: TINY_GIF.length }] });
  });

  it('says when the clipboard holds text, or something that is not an image', async () => {
    fakeXclip('TARGETS\\nUTF8_STRING\\ntext/plain\\n', {});
    expect(await readClipboardImage({ env: env({ DISPLAY: ':0' }), platform: 'linux' })).toEqual({
      ok: false,
      message: 'The clipboard holds text, not an image',
    });
    fakeXclip('image/png\\n', { 'image/png': 'printf hello' });
    expect(await readClipboardImage({ env: env({ DISPLAY: ':0' }), platform: 'linux' })).toEqual({
      ok: false,
      message: 'The clipboard image is not PNG, JPEG, GIF or WebP',
    });
  });

  it('says when there is no clipboard tool or no display', async () => {
    const empty = { PATH: join(dir, 'empty') };
    expect(await readClipboardImage({ env: { ...empty, DISPLAY: ':0' }, platform: 'linux' })).toEqual({
      ok: false,
      message: 'No clipboard tool found: install xclip',
    });
    expect(
      await readClipboardImage({ env: { ...empty, WAYLAND_DISPLAY: 'w', DISPLAY: ':0' }, platform: 'linux' }),
    ).toEqual({ ok: false, message: 'No clipboard tool found: install wl-clipboard (wl-paste) or xclip' });
    expect(await readClipboardImage({ env: empty, platform: 'linux' })).toEqual({
      ok: false,
      message:
        'No clipboard to read: neither WAYLAND_DISPLAY nor DISPLAY is set (paste the file path instead)',
    });
  });

  it('stops a tool that prints more than the size cap, or does not answer in time', async () => {
    fakeXclip('image/png\\n', { 'image/png': `cat '${join(dir, 'tiny.png')}'` });
    expect(
      await readClipboardImage({ env: env({ DISPLAY: ':0' }), platform: 'linux', maxBytes: 32 }),
    ).toEqual({
      ok: false,
      message: 'The clipboard image is over 32 B: images are limited to 32 B',
    });
    fakeXclip('image/png\\n', { 'image/png': 'exec sleep 30' });
    const started = Date.now();
    expect(
      await readClipboardImage({ env: env({ DISPLAY: ':0' }), platform: 'linux', timeoutMs: 300 }),
    ).toEqual({ ok: false, message: 'xclip did not answer within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('reads with pngpaste on macOS, else with osascript', async () => {
    writeFakeTool(bin, 'pngpaste', `cat '${join(dir, 'tiny.png')}'`);
    expect(await readClipboardImage({ env: env({}), platform: 'darwin' })).toMatchObject({
      ok: true,
      images: [{ mimeType: 'image/png', data: TINY_PNG.toString('base64') }],
    });
    rmSync(join(bin, 'pngpaste'));
    writeFakeTool(bin, 'osascript', `printf '«data PNGf${TINY_PNG.toString('hex').toUpperCase()}»\\n'`);
    expect(await readClipboardImage({ env: { PATH: bin }, platform: 'darwin' })).toMatchObject({
      ok: true,
      images: [{ mimeType: 'image/png', data: TINY_PNG.toString('base64') }],
    });
  });
});
