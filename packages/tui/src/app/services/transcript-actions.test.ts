import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFakeTool } from '../../test-support/images.js';
import { browseLocation } from '../browse/browse-document.js';
import { DEFAULT_SETTINGS, type TuiSettings } from '../settings/settings.js';
import { osc52Sequence } from './clipboard-copy.js';
import { TranscriptActions } from './transcript-actions.js';

let dir: string;
let workspace: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acp-actions-'));
  workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'a.ts'), 'one\ntwo\nthree\n');
  writeFileSync(join(dir, 'elsewhere.txt'), 'x\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setup(env: NodeJS.ProcessEnv, settings: Partial<TuiSettings> = {}) {
  const flashes: string[] = [];
  const notes: (string | undefined)[] = [];
  const written: string[] = [];
  const actions = new TranscriptActions({
    env: () => env,
    settings: () => ({ ...DEFAULT_SETTINGS, ...settings }),
    flash: (text, severity) => void flashes.push(`${severity}: ${text}`),
    handover: {
      run: (work, note) => {
        notes.push(note);
        return work();
      },
    },
    writeTerminal: (data) => void written.push(data),
  });
  return { actions, flashes, notes, written };
}

const roots = () => ({ cwd: workspace, additional: [] });

describe('opening a location in the editor', () => {
  it('hands the terminal to $VISUAL at the line, and says it is back', async () => {
    const editor = writeFakeTool(join(dir, 'bin'), 'edit', `printf '%s\\n' "$@" > '${dir}/args'`);
    const { actions, flashes, notes } = setup({ VISUAL: editor, EDITOR: 'nano' });
    await actions.open(browseLocation(join(workspace, 'a.ts'), 2, roots()), workspace);
    expect(readFileSync(join(dir, 'args'), 'utf8')).toBe(`+2\n${join(workspace, 'a.ts')}\n`);
    expect(notes).toEqual(['opening a.ts:2 in edit; acp comes back when the editor exits.']);
    expect(flashes).toEqual(['info: Back from a.ts:2 in edit']);
  });

  it("opens files outside the session's directories, and says so", async () => {
    const editor = writeFakeTool(join(dir, 'bin'), 'edit', 'exit 0');
    const { actions, flashes } = setup({ EDITOR: editor });
    const location = browseLocation(join(dir, 'elsewhere.txt'), undefined, roots());
    expect(location.outside).toBe(true);
    await actions.open(location, workspace);
    expect(flashes[0]).toMatch(
      /^info: Back from .*elsewhere\.txt \(outside the session's directories\) in edit$/,
    );
  });

  it('starts a graphical editor without taking the terminal', async () => {
    const code = writeFakeTool(join(dir, 'bin'), 'code', `printf '%s\\n' "$@" > '${dir}/args'`);
    const { actions, flashes, notes } = setup({ EDITOR: `${code} --wait` });
    await actions.open(browseLocation('a.ts', 3, roots()), workspace);
    expect(notes).toEqual([]);
    expect(flashes).toEqual(['info: Opened a.ts:3 in code']);
    for (let i = 0; i < 100 && !existsSync(join(dir, 'args')); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(join(dir, 'args'), 'utf8')).toBe(`--wait\n-g\n${join(workspace, 'a.ts')}:3\n`);
  });

  it('opens one editor at a time (a second o before the UI stepped aside does nothing)', async () => {
    const editor = writeFakeTool(join(dir, 'bin'), 'edit', `echo run >> '${dir}/runs'; sleep 0.2`);
    const { actions, notes } = setup({ EDITOR: editor });
    const location = browseLocation('a.ts', 1, roots());
    await Promise.all([actions.open(location, workspace), actions.open(location, workspace)]);
    expect(readFileSync(join(dir, 'runs'), 'utf8')).toBe('run\n');
    expect(notes).toHaveLength(1);
    await actions.open(location, workspace);
    expect(readFileSync(join(dir, 'runs'), 'utf8')).toBe('run\nrun\n');
  });

  it('says when the file is gone, the editor missing, or the editor failed', async () => {
    const { actions, flashes, notes } = setup({ EDITOR: join(dir, 'no-such-editor'), PATH: dir });
    await actions.open(browseLocation('gone.ts', 1, roots()), workspace);
    await actions.open(browseLocation('a.ts', 1, roots()), workspace);
    expect(notes).toEqual([]);
    const failing = writeFakeTool(join(dir, 'bin'), 'edit', 'exit 2');
    const second = setup({ EDITOR: failing });
    await second.actions.open(browseLocation('a.ts', 1, roots()), workspace);
    expect([...flashes, ...second.flashes]).toEqual([
      'warning: gone.ts:1 does not exist (any more)',
      `error: The editor ${join(dir, 'no-such-editor')} ($EDITOR) was not found: set $VISUAL or $EDITOR`,
      'warning: edit exited with code 2 (a.ts:1)',
    ]);
  });
});

describe('copying', () => {
  it('copies with the method of the settings and counts the characters', async () => {
    const { actions, flashes, written } = setup({}, { clipboard: 'osc52' });
    await actions.copy('npm test ✓', 'code block');
    expect(written).toEqual([osc52Sequence('npm test ✓')]);
    await actions.copy('', 'message');
    expect(flashes).toEqual([
      'info: Copied the code block: 10 characters (OSC 52)',
      'warning: Nothing to copy: the message is empty',
    ]);
  });
});
