import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFakeTool } from '../../test-support/images.js';
import { editorFromEnv, editorLaunch, editorName, runEditor, splitCommandLine } from './editor-launch.js';

describe('the editor command', () => {
  it('passes the line the way each editor takes it', () => {
    const args = (editor: string, line?: number) => {
      const launch = editorLaunch(splitCommandLine(editor), '/w/src/a.ts', line);
      return [launch.command, ...launch.args].join(' ');
    };
    for (const name of ['vi', 'vim', 'nvim', 'nano', 'emacs', 'emacsclient', 'micro', 'kak'])
      expect(args(name, 12)).toBe(`${name} +12 /w/src/a.ts`);
    expect(args('hx', 12)).toBe('hx /w/src/a.ts:12');
    expect(args('code', 12)).toBe('code -g /w/src/a.ts:12');
    expect(args('code --wait', 12)).toBe('code --wait -g /w/src/a.ts:12');
    expect(args('cursor', 3)).toBe('cursor -g /w/src/a.ts:3');
    expect(args('subl', 12)).toBe('subl /w/src/a.ts:12');
    expect(args('zed', 12)).toBe('zed /w/src/a.ts:12');
    expect(args('idea', 12)).toBe('idea --line 12 /w/src/a.ts');
    expect(args('mate', 12)).toBe('mate -l 12 /w/src/a.ts');
    // As less does for its `v` command: an editor not listed gets `+LINE`.
    expect(args('/opt/bin/my-editor', 7)).toBe('/opt/bin/my-editor +7 /w/src/a.ts');
    expect(args('vim')).toBe('vim /w/src/a.ts');
    expect(args('code')).toBe('code -g /w/src/a.ts');
  });

  it('knows which editors have a window of their own', () => {
    expect(editorLaunch(['vim'], '/a', 1).gui).toBe(false);
    expect(editorLaunch(['hx'], '/a', 1).gui).toBe(false);
    expect(editorLaunch(['code'], '/a', 1).gui).toBe(true);
    expect(editorLaunch(['subl'], '/a', 1).gui).toBe(true);
    expect(editorLaunch(['unknown-editor'], '/a', 1).gui).toBe(false);
  });

  it('names editors by their command', () => {
    expect(editorName('/usr/local/bin/nvim')).toBe('nvim');
    expect(editorName('C:\\Program Files\\Microsoft VS Code\\bin\\Code.exe')).toBe('code');
  });

  it('splits $EDITOR as sh would (quotes and backslashes)', () => {
    expect(splitCommandLine('code --wait')).toEqual(['code', '--wait']);
    expect(splitCommandLine(`emacsclient -t -a ''`)).toEqual(['emacsclient', '-t', '-a', '']);
    expect(splitCommandLine('"/opt/My Editor/edit" -n')).toEqual(['/opt/My Editor/edit', '-n']);
    expect(splitCommandLine('/opt/My\\ Editor/edit')).toEqual(['/opt/My Editor/edit']);
    expect(splitCommandLine('  ')).toEqual([]);
  });

  it('takes $VISUAL, else $EDITOR, else vi', () => {
    expect(editorFromEnv({ VISUAL: 'nvim', EDITOR: 'nano' })).toEqual({ words: ['nvim'], from: '$VISUAL' });
    expect(editorFromEnv({ VISUAL: '', EDITOR: 'nano -w' })).toEqual({
      words: ['nano', '-w'],
      from: '$EDITOR',
    });
    expect(editorFromEnv({})).toEqual({ words: ['vi'], from: 'the default (vi)' });
  });
});

describe('running the editor', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'acp-editor-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a terminal editor in the session directory and reports how it exited', async () => {
    const editor = writeFakeTool(
      dir,
      'edit',
      `pwd > '${dir}/cwd'; printf '%s\\n' "$@" > '${dir}/args'; exit 3`,
    );
    const run = await runEditor(editorLaunch([editor], '/w/a.ts', 4), { cwd: dir, env: process.env });
    expect(run).toEqual({ kind: 'exited', code: 3, signal: null });
    expect(readFileSync(join(dir, 'args'), 'utf8')).toBe('+4\n/w/a.ts\n');
    expect(readFileSync(join(dir, 'cwd'), 'utf8').trim()).toBe(dir);
  });

  it('says when the editor cannot be started', async () => {
    const run = await runEditor(editorLaunch([join(dir, 'missing')], '/w/a.ts', 1), { cwd: dir, env: {} });
    expect(run).toMatchObject({ kind: 'failed', message: expect.stringMatching(/ENOENT/) });
  });
});
