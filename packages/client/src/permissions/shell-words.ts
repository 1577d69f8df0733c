/**
 * Just enough POSIX shell syntax to tell a *simple command* (words only) from anything a shell
 * would treat specially. Command-prefix rules only ever match simple commands, so a rule for
 * `git status` never covers `git status; curl x | sh`, `git status $(rm -rf ~)` or a second line.
 */

import { parse as shellParse } from 'shell-quote';

/** A command as the agent gave it: a shell line, or an argv run without a shell. */
export type CommandSpec = { line: string } | { argv: readonly string[] };

/** Programs that run their `-c` argument as a shell script. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish']);
/**
 * Where a shell given by path is trusted to be a shell: system directories. A `sh` anywhere else
 * (in the workspace, say) is a program of its own, not a wrapper around its script.
 */
const SYSTEM_BIN =
  /^\/(?:usr\/(?:local\/)?)?s?bin\/[^/]+$|^\/opt\/homebrew\/bin\/[^/]+$|^\/run\/current-system\/sw\/bin\/[^/]+$/;
/**
 * Options that may come before `-c SCRIPT` without changing what runs: login (`-l`, `--login`),
 * errexit, nounset, xtrace, and not reading start-up files. Anything else (`-i` reads an rc file,
 * `--rcfile FILE`, `-o OPTION`, fish's `-C COMMAND`) makes it a command of its own.
 */
const HARMLESS_OPTION = /^-[lcuex]+$|^--(?:login|noprofile|norc)$/;
/** Characters with a meaning to the shell outside quotes (control operators, expansions, subshells). */
const SPECIAL = new Set([';', '&', '|', '<', '>', '(', ')', '$', '`', '\n', '\r']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Splits `line` into words when it is a simple command: words separated by blanks, with single
 * quotes, double quotes (without `$` or backquotes inside) and backslash escapes. Returns undefined
 * for anything else: operators (`;`, `&&`, `|`, redirections), substitutions (`$x`, `$(…)`,
 * backquotes), subshells, comments, several lines, leading variable assignments, or bad quoting.
 *
 * @example
 * parseSimpleCommand("git commit -m 'a; b'"); // ['git', 'commit', '-m', 'a; b']
 * parseSimpleCommand('git status; curl x | sh'); // undefined
 */
export function parseSimpleCommand(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    if (c === '#' && !inWord) return undefined;
    if (SPECIAL.has(c) || c === '\0') return undefined;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (c === '"') {
      const parsed = readDoubleQuoted(line, i + 1);
      if (!parsed) return undefined;
      word += parsed.text;
      inWord = true;
      i = parsed.end + 1;
      continue;
    }
    if (c === '\\') {
      const next = line[i + 1];
      if (next === undefined || next === '\n' || next === '\r') return undefined;
      word += next;
      inWord = true;
      i += 2;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  if (inWord) words.push(word);
  if (words.length === 0) return undefined;
  if (ASSIGNMENT.test(words[0] as string) || words[0] === '!') return undefined;
  return agreesWithShellQuote(line, words) ? words : undefined;
}

/**
 * Second opinion from shell-quote's tokenizer: any operator, glob object, comment or variable it
 * sees, or different words, means the line is not treated as simple.
 */
function agreesWithShellQuote(line: string, words: readonly string[]): boolean {
  let tokens: ReturnType<typeof shellParse>;
  try {
    tokens = shellParse(line, (name) => ({ op: `$${name}` }) as unknown as string);
  } catch {
    return false;
  }
  const flat = tokens.map((token) =>
    typeof token === 'string' ? token : 'op' in token && token.op === 'glob' ? token.pattern : undefined,
  );
  return flat.length === words.length && flat.every((token, i) => token === words[i]);
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quotes a word for a shell line: bare when safe, else single-quoted. */
export function quoteWord(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** An argv as one shell line (what the user sees, and what {@link parseSimpleCommand} reads back). */
export function quoteArgv(argv: readonly string[]): string {
  return argv.map(quoteWord).join(' ');
}

function readDoubleQuoted(line: string, start: number): { text: string; end: number } | undefined {
  let text = '';
  for (let i = start; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '"') return { text, end: i };
    if (c === '$' || c === '`' || c === '\0') return undefined;
    if (c === '\\') {
      const next = line[i + 1];
      if (next === undefined) return undefined;
      if (next === '"' || next === '\\' || next === '$' || next === '`') {
        text += next;
        i++;
        continue;
      }
      if (next === '\n') return undefined;
      text += c;
      continue;
    }
    text += c;
  }
  return undefined;
}

/**
 * The script of a command that runs one through a shell: a bare line itself, or the `SCRIPT` of
 * `SHELL [OPTIONS] -c SCRIPT` where the shell is a bare name or in a system directory, the options
 * are harmless ones, and nothing follows the script. Undefined for anything else.
 *
 * @example
 * shellScript({ argv: ['/bin/sh', '-c', 'echo a; echo b'] }); // 'echo a; echo b'
 * shellScript({ argv: ['bash', '--rcfile', 'x', '-i', '-c', 'ls'] }); // undefined
 */
export function shellScript(command: CommandSpec): string | undefined {
  if ('line' in command) return command.line;
  const [program, ...rest] = command.argv;
  if (program === undefined || !isShell(program)) return undefined;
  // `busybox sh -c …` runs its applet.
  if (basename(program) === 'busybox') return shellScript({ argv: rest });
  // With -c, the first argument after the options is the script.
  const options = rest.slice(0, -1);
  const script = rest.at(-1);
  if (script === undefined || !options.some(isScriptFlag) || !options.every((o) => HARMLESS_OPTION.test(o)))
    return undefined;
  return script;
}

/** `-c`, or a cluster of short options with `c` in it (`-lc`). */
function isScriptFlag(arg: string): boolean {
  return /^-[a-z]*c[a-z]*$/.test(arg);
}

function basename(program: string): string {
  return program.split('/').pop() ?? '';
}

function isShell(program: string): boolean {
  const name = basename(program);
  if (!SHELLS.has(name) && name !== 'busybox') return false;
  return !program.includes('/') || SYSTEM_BIN.test(program);
}

/**
 * The argv a command really runs when it is a simple command: a shell line is parsed, an argv
 * is taken as is, and an argv that runs a shell script (`bash -lc '…'`, see {@link shellScript})
 * is unwrapped and parsed. Undefined when the command is not simple.
 *
 * @example
 * simpleArgv({ argv: ['bash', '-lc', 'npm test'] }); // ['npm', 'test']
 */
export function simpleArgv(command: CommandSpec): string[] | undefined {
  const script = shellScript(command);
  if (script !== undefined) return parseSimpleCommand(script);
  if ('line' in command) return undefined;
  const argv = command.argv;
  if (argv.length === 0 || argv.some((arg) => arg.includes('\0'))) return undefined;
  // A shell running a script in a way not read above (`bash -i -c …`, `sh -c SCRIPT ARG`) is no
  // simple command: what it runs depends on more than its words.
  if (isShell(argv[0] as string) && argv.some(isScriptFlag)) return undefined;
  return [...argv];
}

/** Whether `argv` starts with every word of `prefix`, word for word. */
export function startsWithWords(argv: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length === 0 || prefix.length > argv.length) return false;
  return prefix.every((word, index) => argv[index] === word);
}
