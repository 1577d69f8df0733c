/**
 * Just enough POSIX shell syntax to tell a *simple command* (words only) from anything a shell
 * would treat specially. Command-prefix rules only ever match simple commands, so a rule for
 * `git status` never covers `git status; curl x | sh`, `git status $(rm -rf ~)` or a second line.
 */

import { parse as shellParse } from 'shell-quote';

/** A command as the agent gave it: a shell line, or an argv run without a shell. */
export type CommandSpec = { line: string } | { argv: readonly string[] };

/** Programs that run their `-c` argument as a shell script. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish', 'busybox']);
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
 * The argv a command really runs when it is a simple command: a shell line is parsed, an argv
 * is taken as is, and an argv that runs a shell script (`bash -lc '…'`) is unwrapped and parsed.
 * Undefined when the command is not simple.
 *
 * @example
 * simpleArgv({ argv: ['bash', '-lc', 'npm test'] }); // ['npm', 'test']
 */
export function simpleArgv(command: CommandSpec): string[] | undefined {
  if ('line' in command) return parseSimpleCommand(command.line);
  const argv = command.argv;
  if (argv.length === 0 || argv.some((arg) => arg.includes('\0'))) return undefined;
  const program = (argv[0] as string).split('/').pop() ?? '';
  if (SHELLS.has(program)) {
    const flagIndex = argv.findIndex((arg, index) => index > 0 && /^-[a-z]*c[a-z]*$/.test(arg));
    if (flagIndex > 0) {
      const script = argv[flagIndex + 1];
      return script === undefined ? undefined : parseSimpleCommand(script);
    }
  }
  return [...argv];
}

/** Whether `argv` starts with every word of `prefix`, word for word. */
export function startsWithWords(argv: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length === 0 || prefix.length > argv.length) return false;
  return prefix.every((word, index) => argv[index] === word);
}
