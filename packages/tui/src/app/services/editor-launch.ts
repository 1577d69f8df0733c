/**
 * Opening a file at a line in the user's editor: `$VISUAL`, else `$EDITOR`, else `vi`, with the
 * line passed the way that editor takes it (`+12 path` for the vi and Emacs families and most
 * terminal editors, `code -g path:12`, `subl path:12`, `idea --line 12 path`…). Terminal editors
 * get the terminal (the UI steps aside until they exit); graphical ones are started and left.
 */
import { spawn } from 'node:child_process';
import { basename } from 'node:path';

/** How an editor takes a line number. */
type LineStyle =
  /** `+12 path`: vi, vim, nvim, nano, emacs, micro, kak, joe… (and, as less does, any editor not listed). */
  | 'plus'
  /** `path:12`: Helix, Sublime Text, Zed. */
  | 'colon'
  /** `-g path:12`: VS Code and its forks. */
  | 'goto'
  /** `--line 12 path`: JetBrains IDEs, Kate. */
  | 'line-flag'
  /** `-l 12 path`: TextMate. */
  | 'l-flag';

interface EditorKind {
  readonly style: LineStyle;
  /** A window of its own: it does not need the terminal. */
  readonly gui: boolean;
}

const TERMINAL_PLUS: EditorKind = { style: 'plus', gui: false };
const GUI = (style: LineStyle): EditorKind => ({ style, gui: true });

/** Editors by command name (lower case, without `.exe`). */
const EDITORS: Readonly<Record<string, EditorKind>> = {
  ...Object.fromEntries(
    [
      'vi',
      'vim',
      'nvim',
      'view',
      'vimx',
      'nano',
      'rnano',
      'pico',
      'emacs',
      'emacsclient',
      'micro',
      'kak',
      'joe',
      'jmacs',
      'jpico',
      'jstar',
      'jed',
      'mg',
      'ne',
      'vis',
      'mcedit',
    ].map((name) => [name, TERMINAL_PLUS]),
  ),
  hx: { style: 'colon', gui: false },
  helix: { style: 'colon', gui: false },
  gvim: GUI('plus'),
  mvim: GUI('plus'),
  gedit: GUI('plus'),
  bbedit: GUI('plus'),
  ...Object.fromEntries(['subl', 'sublime_text', 'zed', 'zeditor', 'atom'].map((n) => [n, GUI('colon')])),
  ...Object.fromEntries(
    ['code', 'code-insiders', 'codium', 'vscodium', 'cursor', 'windsurf'].map((n) => [n, GUI('goto')]),
  ),
  ...Object.fromEntries(
    ['idea', 'pycharm', 'webstorm', 'goland', 'clion', 'phpstorm', 'rubymine', 'rider', 'studio', 'kate'].map(
      (n) => [n, GUI('line-flag')],
    ),
  ),
  mate: GUI('l-flag'),
};

/**
 * Splits a command line into words as `sh` would for `$EDITOR` (quotes and backslashes; no
 * expansion), so `code --wait` and `"/opt/My Editor/bin/edit" -n` work.
 *
 * @example
 * splitCommandLine(`emacsclient -t -a ''`); // ['emacsclient', '-t', '-a', '']
 */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      word = (word ?? '') + text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (ch === '"') {
      word ??= '';
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && /["\\$`]/.test(text[i + 1] ?? '')) i++;
        word += text[i] ?? '';
      }
    } else if (ch === '\\') {
      word = (word ?? '') + (text[++i] ?? '');
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + ch;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The editor the user chose: `$VISUAL`, else `$EDITOR`, else `vi`. */
export function editorFromEnv(env: NodeJS.ProcessEnv): { words: string[]; from: string } {
  for (const name of ['VISUAL', 'EDITOR'] as const) {
    const words = splitCommandLine(env[name] ?? '');
    if (words.length > 0) return { words, from: `$${name}` };
  }
  return { words: ['vi'], from: 'the default (vi)' };
}

/** The name an editor command goes by (`/usr/bin/nvim` → `nvim`, `Code.exe` → `code`). */
export function editorName(command: string): string {
  return basename(command.replace(/\\/g, '/'))
    .toLowerCase()
    .replace(/\.(exe|cmd|bat)$/, '');
}

/** A command that opens a file at a line. */
export interface EditorLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** The editor has a window of its own (the terminal stays with the UI). */
  readonly gui: boolean;
  readonly name: string;
}

/**
 * The command opening `path` at `line` (1-based) in the editor `words` (`$EDITOR` split).
 *
 * @example
 * editorLaunch(['nvim'], '/w/a.ts', 12); // { command: 'nvim', args: ['+12', '/w/a.ts'], … }
 * editorLaunch(['code', '--wait'], '/w/a.ts', 12); // args: ['--wait', '-g', '/w/a.ts:12']
 */
export function editorLaunch(words: readonly string[], path: string, line?: number): EditorLaunch {
  const [command = 'vi', ...given] = words;
  const name = editorName(command);
  const kind = EDITORS[name] ?? TERMINAL_PLUS;
  let args: string[];
  if (line === undefined) args = kind.style === 'goto' ? ['-g', path] : [path];
  else {
    switch (kind.style) {
      case 'plus':
        args = [`+${line}`, path];
        break;
      case 'colon':
        args = [`${path}:${line}`];
        break;
      case 'goto':
        args = ['-g', `${path}:${line}`];
        break;
      case 'line-flag':
        args = ['--line', String(line), path];
        break;
      case 'l-flag':
        args = ['-l', String(line), path];
        break;
    }
  }
  return { command, args: [...given, ...args], gui: kind.gui, name };
}

/** How running the editor ended. */
export type EditorRun =
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'started' }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * Runs the editor: a terminal editor with the terminal (stdio inherited; resolves when it exits),
 * a graphical one detached (resolves once it started).
 */
export function runEditor(
  launch: EditorLaunch,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<EditorRun> {
  return new Promise((resolve) => {
    const child = spawn(launch.command, launch.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: launch.gui ? 'ignore' : 'inherit',
      detached: launch.gui,
    });
    child.on('error', (error) => resolve({ kind: 'failed', message: error.message }));
    if (launch.gui) {
      child.on('spawn', () => {
        child.unref();
        resolve({ kind: 'started' });
      });
    } else child.on('exit', (code, signal) => resolve({ kind: 'exited', code, signal }));
  });
}
