import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AvailableCommand } from '@acp-kit/protocol';
import { readClipboardImage } from '../app/services/clipboard-image.js';
import { readImageFiles } from '../app/services/image-files.js';
import { KEYS, renderInk, expectSafeFrame, flat, settle, type Rendered } from '../test-support/ink.js';
import { TINY_GIF, TINY_PNG, writeFakeTool } from '../test-support/images.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { Composer } from './Composer.js';
import type { ImageAttachment, ImageReader } from './image-attachment.js';

const commands: AvailableCommand[] = [
  { name: 'plan', description: 'Write a plan first', input: { hint: 'what to plan' } },
  { name: 'review', description: 'Review the diff' },
  { name: 'pr comments', description: 'Address PR comments' },
];
const files = ['src/parser.ts', 'src/printer.ts', 'README.md', 'docs/protocol.md'];

function setup(props: Partial<Parameters<typeof Composer>[0]> = {}) {
  const onSubmit = vi.fn<(text: string, images: readonly ImageAttachment[]) => void>();
  const r = renderInk(<Composer onSubmit={onSubmit} commands={commands} files={files} {...props} />);
  const body = () =>
    r
      .frame()
      .split('\n')
      .filter((l) => !/^[╭╰]/.test(l))
      .map((l) => l.replace(/^│ ?| ?│$/g, '').trimEnd());
  return { ...r, onSubmit, body };
}

describe('Composer', () => {
  it('shows a placeholder, and a different one while the agent works', () => {
    expect(flat(setup().frame())).toContain('Message · / for commands · @ to mention a file');
    expect(flat(setup({ busy: true }).frame())).toContain('The agent is working · type to queue a prompt');
  });

  it('submits on Enter and clears', async () => {
    const { type, press, onSubmit, body } = setup();
    await type('hello');
    expect(body()[0]).toBe('› hello');
    await press(KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('hello', []);
    expect(flat(body().join('\n'))).toContain('Message');
  });

  it('sends every character typed before Enter, even when keys come faster than renders', async () => {
    const { type, stdin, onSubmit } = setup();
    await type('h');
    // A busy event loop hands Ink the last key and Enter together, before the key's render.
    stdin.write('i');
    stdin.write(KEYS.enter);
    await settle();
    expect(onSubmit).toHaveBeenCalledWith('hi', []);
  });

  it('edits multi-line text: Alt+Enter, a trailing backslash, cursor movement', async () => {
    const { type, press, onSubmit, body } = setup();
    await type('one');
    await press(KEYS.altEnter);
    await type('two\\');
    await press(KEYS.enter);
    await type('three');
    expect(body().slice(0, 3)).toEqual(['› one', '  two', '  three']);
    await press(KEYS.up, KEYS.left, KEYS.backspace);
    expect(body()[1]).toBe('  to');
    await press(KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('one\nto\nthree', []);
  });

  it('inserts pasted text whole, normalising line endings and dropping control characters', async () => {
    const { press, body, frame } = setup();
    await press('line 1\r\nline 2\x07\u202e\u0085 end');
    expect(body().slice(0, 2)).toEqual(['› line 1', '  line 2 end']);
    // Ink delivers escape sequences as key events; none of them reaches the text.
    await press('\x1b[200~', '\x1b[I', '\x1b]0;t\x07');
    expectSafeFrame(frame());
  });

  it('browses history with up and down, keeping the draft', async () => {
    const { type, press, body } = setup({ history: ['first', 'second'] });
    await type('draft');
    await press(KEYS.up);
    expect(body()[0]).toBe('› second');
    await press(KEYS.up);
    expect(body()[0]).toBe('› first');
    await press(KEYS.down, KEYS.down);
    expect(body()[0]).toBe('› draft');
  });

  it('offers slash commands with descriptions and hints, and completes them', async () => {
    const { type, press, body, onSubmit } = setup();
    await type('/p');
    expect(body().slice(1)).toEqual([
      '  /plan <what to plan>  Write a plan first',
      '  /pr comments  Address PR comments',
    ]);
    await press(KEYS.down, KEYS.tab);
    expect(body()[0]).toBe('› /pr comments');
    await press(KEYS.ctrl('u'));
    await type('/pla');
    await press(KEYS.enter);
    expect(body()).toEqual(['› /plan  what to plan']);
    await type('the refactor');
    await press(KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/plan the refactor', []);
  });

  it('closes the palette with Esc', async () => {
    const { type, press, body } = setup();
    await type('/r');
    expect(body()).toHaveLength(3);
    await press(KEYS.escape);
    expect(body()).toEqual(['› /r']);
  });

  it('fuzzy-matches files after @ and inserts the mention', async () => {
    const { type, press, body, onSubmit } = setup();
    await type('look at @prs');
    expect(body().slice(1)).toEqual(['  @src/parser.ts', '  @src/printer.ts']);
    await press(KEYS.enter);
    expect(body()[0]).toBe('› look at @src/parser.ts');
    await type('now');
    await press(KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('look at @src/parser.ts now', []);
  });

  it('shows queued prompts, and what they wait for', () => {
    expect(setup({ queued: 2 }).frame().split('\n')[0]).toBe(
      '⏳ 2 prompts queued · sent when the current turn ends',
    );
    expect(setup({ queued: 1, waitingFor: 'session' }).frame().split('\n')[0]).toBe(
      '⏳ 1 prompt queued · sent when the session is ready',
    );
  });

  it('opens help from an empty composer only', async () => {
    const onHelp = vi.fn();
    const { type, body } = setup({ onHelp });
    await type('?');
    expect(onHelp).toHaveBeenCalledTimes(1);
    await type('a?');
    expect(onHelp).toHaveBeenCalledTimes(1);
    expect(body()[0]).toBe('› a?');
  });

  it('is safe for hostile command names, descriptions and file names', async () => {
    for (const entry of ESCAPE_CORPUS) {
      const r = setup({
        commands: [{ name: `x${entry.input}`, description: entry.input, input: { hint: entry.input } }],
        files: [`x${entry.input}`],
      });
      await r.type('/x');
      expectSafeFrame(r.frame());
      await r.press(KEYS.ctrl('u'));
      await r.type('@x');
      expectSafeFrame(r.frame());
      if (entry.visible) expect(flat(r.frame())).toContain(flat(entry.visible));
      r.unmount();
    }
  });
});

describe('Composer images', () => {
  let dir: string;
  let reader: ImageReader;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'acp-composer-images-'));
    writeFileSync(join(dir, 'shot one.png'), TINY_PNG);
    writeFileSync(join(dir, 'cat.gif'), TINY_GIF);
    writeFileSync(join(dir, 'notes.png'), 'not an image\n');
    // The real services: files read from disk, the clipboard through a fake xclip first on PATH.
    writeFakeTool(
      join(dir, 'bin'),
      'xclip',
      `case "$*" in *TARGETS*) printf 'image/png\\n' ;; *image/png*) cat '${join(dir, 'shot one.png')}' ;; esac`,
    );
    const env = { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, DISPLAY: ':0' };
    reader = {
      readFiles: (paths) => readImageFiles(paths),
      readClipboard: () => readClipboardImage({ env, platform: 'linux' }),
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Waits until the frame shows `text` (image reads finish on the thread pool or in a child process). */
  async function until(r: Rendered, text: string): Promise<string> {
    const deadline = Date.now() + 10_000;
    while (!flat(r.frame()).includes(text) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(flat(r.frame())).toContain(text);
    await settle();
    return flat(r.frame());
  }

  it('attaches pasted or dropped image paths as chips and sends them with the prompt', async () => {
    const r = setup({ imageSupport: 'yes', images: reader });
    await r.press(`'${join(dir, 'shot one.png')}' file://${join(dir, 'cat.gif')}`);
    const frame = await until(r, '[▣ cat.gif · GIF 35 B]');
    expect(frame).toContain('[▣ shot one.png · PNG 70 B]');
    expect(frame).toContain('Add a message, or Enter to send the images');
    await r.type('what is this?');
    await r.press(KEYS.enter);
    expect(r.onSubmit).toHaveBeenCalledTimes(1);
    const [text, images] = r.onSubmit.mock.calls[0] ?? [];
    expect(text).toBe('what is this?');
    expect(images).toEqual([
      {
        label: 'shot one.png',
        mimeType: 'image/png',
        data: TINY_PNG.toString('base64'),
        bytes: 70,
        path: join(dir, 'shot one.png'),
      },
      {
        label: 'cat.gif',
        mimeType: 'image/gif',
        data: TINY_GIF.toString('base64'),
        bytes: 35,
        path: join(dir, 'cat.gif'),
      },
    ]);
    expect(flat(r.frame())).not.toContain('▣');
  });

  it('removes the last image with Backspace at the start, and sends images without text', async () => {
    const r = setup({ imageSupport: 'yes', images: reader });
    await r.press(`${join(dir, 'cat.gif')} ${join(dir, 'shot\\ one.png')}`);
    await until(r, 'shot one.png');
    await r.type('x');
    await r.press(KEYS.left, KEYS.backspace);
    expect(flat(r.frame())).not.toContain('shot one.png');
    expect(flat(r.frame())).toContain('[▣ cat.gif · GIF 35 B]');
    await r.press(KEYS.right, KEYS.backspace, KEYS.enter);
    expect(r.onSubmit).toHaveBeenCalledWith('', [expect.objectContaining({ label: 'cat.gif' })]);
  });

  it('attaches the clipboard image on Ctrl+V', async () => {
    const r = setup({ imageSupport: 'yes', images: reader });
    await r.press(KEYS.ctrl('v'));
    await until(r, '[▣ clipboard · PNG 70 B]');
    await r.press(KEYS.enter);
    expect(r.onSubmit).toHaveBeenCalledWith('', [
      { label: 'clipboard', mimeType: 'image/png', data: TINY_PNG.toString('base64'), bytes: 70 },
    ]);
  });

  it('keeps pasted paths as text when the agent does not accept images, and says why once', async () => {
    const r = setup({ imageSupport: 'no', images: reader });
    const path = join(dir, 'cat.gif');
    await r.press(path);
    expect(r.body()[0]).toBe(`› ${path}`);
    expect(flat(r.frame())).toContain('Kept as text: this agent does not accept images');
    await r.press(KEYS.ctrl('u'), path);
    expect(flat(r.frame())).not.toContain('Kept as text');
    await r.press(KEYS.ctrl('v'));
    expect(flat(r.frame())).toContain('This agent does not accept images');
    expect(flat(r.frame())).not.toContain('▣');
  });

  it('keeps text that only looks like image paths: missing files quietly, other files with the reason', async () => {
    const r = setup({ imageSupport: 'yes', images: reader });
    const missing = join(dir, 'missing.png');
    await r.press(missing);
    await until(r, `› ${missing}`);
    expect(flat(r.frame())).not.toContain('kept as text');
    await r.press(KEYS.ctrl('u'), join(dir, 'notes.png'));
    await until(r, 'notes.png is not a PNG, JPEG, GIF or WebP image (kept as text)');
    expect(r.body()[0]).toBe(`› ${join(dir, 'notes.png')}`);
  });

  it('says when the clipboard cannot give an image', async () => {
    const r = setup({
      imageSupport: 'yes',
      images: {
        ...reader,
        readClipboard: () => readClipboardImage({ env: { PATH: dir }, platform: 'linux' }),
      },
    });
    await r.press(KEYS.ctrl('v'));
    await until(r, 'No clipboard to read: neither WAYLAND_DISPLAY nor DISPLAY is set');
  });
});
