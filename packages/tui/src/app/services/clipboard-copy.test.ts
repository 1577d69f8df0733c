import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFakeTool } from '../../test-support/images.js';
import { copyText, copyTools, MAX_OSC52_BYTES, osc52Sequence } from './clipboard-copy.js';

let dir: string;
let bin: string;
let out: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acp-copy-'));
  bin = join(dir, 'bin');
  out = join(dir, 'copied');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The fake tools first on PATH (the shell still finds cat and sleep). */
const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
  ...extra,
});

describe('OSC 52', () => {
  it('encodes the text in base64 in one OSC 52 sequence ended by BEL', () => {
    expect(osc52Sequence('hi')).toBe('\x1b]52;c;aGk=\x07');
    const text = 'é ✓ 日本\nline 2';
    const payload = /^\x1b\]52;c;([A-Za-z0-9+/=]*)\x07$/.exec(osc52Sequence(text))?.[1] ?? ''; // eslint-disable-line no-control-regex
    expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(text);
  });

  it('inside tmux, also wraps it for passthrough to the outer terminal (ESC doubled)', () => {
    const plain = osc52Sequence('hi');
    expect(osc52Sequence('hi', { tmux: true })).toBe(`${plain}\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\`);
  });

  it('writes the sequence to the terminal when the user chose it, and refuses what terminals drop', async () => {
    const written: string[] = [];
    const writeTerminal = (data: string): void => void written.push(data);
    expect(await copyText('npm test', { method: 'osc52', env: {}, writeTerminal })).toEqual({
      ok: true,
      via: 'OSC 52',
    });
    expect(written).toEqual([osc52Sequence('npm test')]);
    await copyText('x', { method: 'osc52', env: { TMUX: '/tmp/tmux-1/default,1,0' }, writeTerminal });
    expect(written[1]).toBe(osc52Sequence('x', { tmux: true }));
    const huge = await copyText('x'.repeat(MAX_OSC52_BYTES + 1), { method: 'osc52', env: {}, writeTerminal });
    expect(huge).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Too large to copy with OSC 52/),
    });
    expect(written).toHaveLength(2);
  });
});

describe('the system clipboard tools', () => {
  it('picks them as the system has them', () => {
    const names = (e: NodeJS.ProcessEnv, platform: NodeJS.Platform = 'linux') =>
      copyTools(e, platform).tools.map((tool) => tool.command);
    expect(names({}, 'darwin')).toEqual(['pbcopy']);
    expect(names({}, 'win32')).toEqual(['clip.exe']);
    expect(names({ WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' })).toEqual(['wl-copy', 'xclip', 'xsel']);
    expect(names({ DISPLAY: ':0' })).toEqual(['xclip', 'xsel']);
    expect(names({ WSL_DISTRO_NAME: 'Ubuntu' })).toEqual(['clip.exe']);
    expect(names({})).toEqual([]);
  });

  it('pipes the text to the first tool on PATH and says which', async () => {
    writeFakeTool(bin, 'xsel', `echo "$*" > '${out}.args'; cat > '${out}'`);
    const result = await copyText('copied ✓\n', {
      method: 'system',
      env: env({ DISPLAY: ':0' }),
      platform: 'linux',
    });
    expect(result).toEqual({ ok: true, via: 'xsel' });
    expect(readFileSync(out, 'utf8')).toBe('copied ✓\n');
    expect(readFileSync(`${out}.args`, 'utf8').trim()).toBe('--clipboard --input');
  });

  it('does not wait for a tool that stays in the background to serve the selection', async () => {
    // Like xclip: the command exits while a child it forked keeps its stderr open.
    writeFakeTool(bin, 'xclip', `cat > '${out}'; (sleep 3 &); exit 0`);
    const started = Date.now();
    const result = await copyText('abc', {
      method: 'system',
      env: env({ DISPLAY: ':0' }),
      platform: 'linux',
    });
    expect(result).toEqual({ ok: true, via: 'xclip' });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('gives clip.exe UTF-16 with a byte order mark', async () => {
    writeFakeTool(bin, 'clip.exe', `cat > '${out}'`);
    const result = await copyText('é', {
      method: 'system',
      env: env({ WSL_DISTRO_NAME: 'Ubuntu' }),
      platform: 'linux',
    });
    expect(result).toEqual({ ok: true, via: 'clip.exe' });
    expect([...readFileSync(out)]).toEqual([0xff, 0xfe, 0xe9, 0x00]);
  });

  it('says what failed, and what to do when there is no tool or no display', async () => {
    writeFakeTool(bin, 'xclip', `echo "Error: Can't open display: :0" >&2; exit 1`);
    expect(await copyText('a', { method: 'system', env: env({ DISPLAY: ':0' }), platform: 'linux' })).toEqual(
      {
        ok: false,
        message: "xclip exited with code 1: Error: Can't open display: :0",
      },
    );
    const none = await copyText('a', {
      method: 'system',
      env: { PATH: dir, DISPLAY: ':0' },
      platform: 'linux',
    });
    expect(none).toEqual({
      ok: false,
      message: 'No clipboard tool found: install xclip, or turn on OSC 52 in Settings',
    });
    const headless = await copyText('a', { method: 'system', env: { PATH: dir }, platform: 'linux' });
    expect(headless).toMatchObject({
      ok: false,
      message: expect.stringMatching(/no DISPLAY or WAYLAND_DISPLAY.*OSC 52/),
    });
  });
});
