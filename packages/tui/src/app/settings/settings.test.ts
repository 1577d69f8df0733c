import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentFeatures } from '@acp-kit/client';
import { inkKey } from '../../test-support/key.js';
import { keySpecFromInput } from './key-capture.js';
import { loadSettings, updateSettings } from './settings-file.js';
import { DEFAULT_SETTINGS, mcpServersFor, parseSettings, usableMcpServers } from './settings.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempFile(content?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'acp-tui-settings-'));
  dirs.push(dir);
  const file = join(dir, 'tui.json');
  if (content !== undefined) writeFileSync(file, content);
  return file;
}

describe('settings', () => {
  it('reads valid fields, reports invalid ones and keeps defaults for them', () => {
    const { settings, problems } = parseSettings({
      theme: 'neon',
      reviewWrites: false,
      stallSeconds: -1,
      keys: { 'app.menu': 'ctrl+g', 'app.help': 3 },
      mcpServers: {
        files: { command: 'mcp-files', args: ['--root', '.'], env: { TOKEN: 'secret' } },
        web: { type: 'http', url: 'https://mcp.example', headers: { Authorization: 'Bearer x' } },
        broken: { args: [] },
      },
      agents: { claude: { mcpServers: { files: { command: 'other-files' } } } },
    });
    expect(settings.theme).toBe('dark');
    expect(settings.reviewWrites).toBe('never');
    expect(settings.stallSeconds).toBe(DEFAULT_SETTINGS.stallSeconds);
    expect(settings.keys).toEqual({ 'app.menu': 'ctrl+g' });
    expect(settings.mcpServers).toEqual([
      {
        name: 'files',
        command: 'mcp-files',
        args: ['--root', '.'],
        env: [{ name: 'TOKEN', value: 'secret' }],
      },
      {
        type: 'http',
        name: 'web',
        url: 'https://mcp.example',
        headers: [{ name: 'Authorization', value: 'Bearer x' }],
      },
    ]);
    expect(problems).toEqual([
      'theme must be "dark", "light", "ansi" or "none"',
      'keys.app.help must be a key or a list of keys',
      'stallSeconds must be a number of at least 1',
      'mcpServers.broken.command must be a non-empty string (or set "type": "http" with a url)',
    ]);
    const forClaude = mcpServersFor(settings, 'claude');
    expect(forClaude.map((s) => [s.server.name, s.scope])).toEqual([
      ['web', 'global'],
      ['files', 'claude'],
    ]);
    expect(mcpServersFor(settings, 'codex').map((s) => s.scope)).toEqual(['global', 'global']);
    // Usable: stdio always, http only when advertised — all of them over MCP-over-ACP.
    const names = (mcp: Partial<AgentFeatures['mcp']> | undefined) =>
      usableMcpServers(
        settings,
        'codex',
        mcp && { stdio: true, http: false, sse: false, acp: false, ...mcp },
      ).map((s) => s.server.name);
    expect(names(undefined)).toEqual(['files']);
    expect(names({})).toEqual(['files']);
    expect(names({ http: true })).toEqual(['files', 'web']);
    expect(names({ acp: true })).toEqual(['files', 'web']);
  });

  it('reads the write review mode, the former on/off switch as changed/never', () => {
    expect(DEFAULT_SETTINGS.reviewWrites).toBe('changed');
    for (const mode of ['always', 'changed', 'never'] as const)
      expect(parseSettings({ reviewWrites: mode }).settings.reviewWrites).toBe(mode);
    expect(parseSettings({ reviewWrites: true }).settings.reviewWrites).toBe('changed');
    expect(parseSettings({ reviewWrites: 'sometimes' })).toEqual({
      settings: DEFAULT_SETTINGS,
      problems: ['reviewWrites must be "changed", "always" or "never"'],
    });
  });

  it('loads a missing file as defaults and reports a file that is not JSON', async () => {
    expect(await loadSettings(tempFile())).toEqual({ settings: DEFAULT_SETTINGS, problems: [] });
    const bad = await loadSettings(tempFile('{ nope'));
    expect(bad.settings).toEqual(DEFAULT_SETTINGS);
    expect(bad.problems[0]).toMatch(/is not valid JSON/);
  });

  it('updates the file keeping what the user wrote, and refuses to overwrite invalid JSON', async () => {
    const file = tempFile(
      JSON.stringify({ mcpServers: { files: { command: 'x' } }, custom: 1, keys: { 'app.help': 'f' } }),
    );
    const { settings } = await updateSettings(file, {
      theme: 'light',
      keys: { 'app.menu': ['ctrl+g'], 'app.help': null },
    });
    expect(settings.theme).toBe('light');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { files: { command: 'x' } },
      custom: 1,
      keys: { 'app.menu': ['ctrl+g'] },
      theme: 'light',
    });
    const broken = tempFile('{ nope');
    await expect(updateSettings(broken, { theme: 'dark' })).rejects.toThrow(
      /fix it before changing settings/,
    );
    expect(readFileSync(broken, 'utf8')).toBe('{ nope');
  });

  it('reads and updates how the transcript browser copies (system tool by default, or OSC 52)', async () => {
    expect(DEFAULT_SETTINGS.clipboard).toBe('system');
    expect(parseSettings({ clipboard: 'osc52' }).settings.clipboard).toBe('osc52');
    expect(parseSettings({ clipboard: 'xclip' })).toMatchObject({
      settings: { clipboard: 'system' },
      problems: ['clipboard must be "system" or "osc52"'],
    });
    const file = tempFile('{"theme":"light"}');
    expect((await updateSettings(file, { clipboard: 'osc52' })).settings.clipboard).toBe('osc52');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ theme: 'light', clipboard: 'osc52' });
  });

  it('turns key presses into key specifications', () => {
    const none = inkKey();
    expect(keySpecFromInput('o', { ...none, ctrl: true })).toBe('ctrl+o');
    expect(keySpecFromInput('', { ...none, tab: true, shift: true })).toBe('shift+tab');
    expect(keySpecFromInput('', { ...none, rightArrow: true, ctrl: true })).toBe('ctrl+right');
    expect(keySpecFromInput('?', none)).toBe('?');
    expect(keySpecFromInput(' ', none)).toBe('space');
    expect(keySpecFromInput('pasted text', none)).toBeUndefined();
  });
});
