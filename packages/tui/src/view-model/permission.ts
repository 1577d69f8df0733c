/**
 * The operation a permission request is about, in the exact form the user must see: the full
 * command line, every path, every diff. Derived from the request's tool call and the raw input
 * shapes real agents send; the client engine may supply its own (already resolved) version.
 */
import type { EnvVariable } from '@acp-kit/client';
import type { FileChange, ToolCallContent } from '@acp-kit/client';
import type { Diff, PermissionOption } from '@acp-kit/protocol';
import { isUnknownVariant } from '@acp-kit/protocol';
import type { DiffPlacementView, ToolCallView } from './tool-call.js';

/** What the agent wants to do. */
export interface PermissionOperation {
  /** The command line, exactly as it will run (never shortened). */
  readonly command?: string;
  /** The working directory the command asks for. */
  readonly cwd?: string;
  /** The environment variables the command sets, with their values (never shortened). */
  readonly env?: readonly EnvVariable[];
  /** Paths touched, with a line when known. */
  readonly paths: readonly { readonly path: string; readonly line?: number | null }[];
  readonly diffs: readonly Diff[];
  /** Changes reported as patches (v2 diffs carry no file texts). */
  readonly changes?: readonly FileChange[];
  /**
   * Where each diff is in its file (same indexes), when the client placed it: a snippet diff
   * (Claude sends the edited lines only) is numbered from its real line.
   */
  readonly diffPlacements?: readonly (DiffPlacementView | null | undefined)[];
  /** Text content the tool call carries (for example a URL or query). */
  readonly text: readonly string[];
  /** The raw input, shown when nothing above could be read from it. */
  readonly rawInput?: unknown;
}

/** A pending `session/request_permission`, ready to show. */
export interface PermissionRequestView {
  readonly toolCall: ToolCallView;
  readonly options: readonly PermissionOption[];
  /** Defaults to {@link describePermissionOperation} of the tool call. */
  readonly operation?: PermissionOperation;
}

const PATH_KEYS = ['path', 'file_path', 'filePath', 'abs_path', 'absolute_path', 'notebook_path', 'filename'];
const PATHS_KEYS = ['paths', 'files', 'file_paths'];
const COMMAND_KEYS = ['command', 'cmd', 'commandLine', 'command_line', 'script', 'argv'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Quotes one argument for display the way a POSIX shell would need it. */
export function quoteArgument(arg: string): string {
  if (arg !== '' && /^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command line from a string, or from an argv array (quoted where needed). */
export function commandLineFrom(command: unknown, args?: unknown): string | undefined {
  if (typeof command === 'string' && command.trim() !== '') {
    const extra = isStringArray(args) ? args.map(quoteArgument) : [];
    return [command, ...extra].join(' ');
  }
  if (isStringArray(command) && command.length > 0) return command.map(quoteArgument).join(' ');
  return undefined;
}

function readCommand(input: Record<string, unknown>): string | undefined {
  for (const key of COMMAND_KEYS) {
    const line = commandLineFrom(input[key], key === 'command' || key === 'cmd' ? input.args : undefined);
    if (line !== undefined) return line;
  }
  return undefined;
}

/** Words agents put before the command in a title (`Run ls`, `Execute: ls`, `$ ls`). */
const COMMAND_VERB = /^(?:run(?:ning)?|exec(?:ute|uting)?|terminal|shell|command|\$)\s*:?\s+/i;
/** A shell running a script (`bash -lc 'ls -la'`): the script is what an agent's title shows. */
const SHELL_WRAPPER = /^\S*\b(?:sh|bash|zsh|dash|ksh|fish)(?:\s+-[a-z]+)*\s+(.+)$/;
/** A fenced code block (its info string, then its code). */
const FENCE = /(^|\n)(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\2[ \t]*(?=\n|$)/g;

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const unquote = (text: string): string => /^(['"])(.*)\1$/.exec(text)?.[2] ?? text;

/**
 * Whether a title or text says nothing but the command: the command itself (in a code span or a
 * fenced block, after a verb such as "Run", clipped with `…`), or the script of a shell wrapper.
 *
 * @example
 * restatesCommand('Run `ls -la`', 'ls -la'); // true
 * restatesCommand('Run ls -la', "bash -lc 'ls -la'"); // true
 */
export function restatesCommand(text: string, command: string): boolean {
  const code = new RegExp(FENCE.source).exec(text.trim());
  const bare = code && code.index === 0 && code[0].length === text.trim().length ? (code[3] ?? '') : text;
  const said = oneLine(bare.replace(/`+/g, '')).replace(COMMAND_VERB, '');
  if (said === '') return false;
  const line = oneLine(command);
  const script = SHELL_WRAPPER.exec(line)?.[1];
  const clipped = /(?:\u2026|\.\.\.)$/.test(said) ? said.replace(/(?:\u2026|\.\.\.)$/, '') : undefined;
  return [line, ...(script !== undefined ? [unquote(script)] : [])].some(
    (candidate) =>
      candidate === said || (clipped !== undefined && clipped !== '' && candidate.startsWith(clipped)),
  );
}

/** Text content without the command again: fenced blocks of it removed, nothing left if it only said it. */
function withoutCommand(text: string, command: string): string {
  if (restatesCommand(text, command)) return '';
  return text.replace(FENCE, (block, start: string, _fence, code: string) =>
    restatesCommand(code, command) ? start : block,
  );
}

/**
 * The heading of a permission question: the tool call's title, or "Run a command" when the title
 * only restates the command the question shows under it.
 */
export function permissionHeading(title: string, operation: PermissionOperation): string {
  return operation.command !== undefined && restatesCommand(title, operation.command)
    ? 'Run a command'
    : title;
}

/**
 * Reads the operation out of a tool call: the command (`execute` calls; `command` when the client
 * engine already resolved it), paths from locations, diffs and raw input, text content (without
 * what only repeats the command). The raw input is kept when no command, path or diff was found.
 */
export function describePermissionOperation(
  call: ToolCallView,
  resolved: { readonly command?: string } = {},
): PermissionOperation {
  const paths: { path: string; line?: number | null }[] = [];
  const addPath = (path: unknown, line?: number | null): void => {
    if (typeof path !== 'string' || path === '') return;
    const existing = paths.find((p) => p.path === path);
    if (existing) {
      if (existing.line == null && line != null) existing.line = line;
      return;
    }
    paths.push(line == null ? { path } : { path, line });
  };
  for (const location of call.locations) addPath(location.path, location.line);
  const diffs: Diff[] = [];
  const changes: FileChange[] = [];
  const text: string[] = [];
  for (const item of call.content) collectContent(item, { diffs, changes, text }, addPath);
  const input = call.rawInput;
  let command: string | undefined;
  let cwd: string | undefined;
  if (isRecord(input)) {
    command = readCommand(input);
    for (const key of PATH_KEYS) addPath(input[key]);
    for (const key of PATHS_KEYS) if (isStringArray(input[key])) for (const p of input[key]) addPath(p);
    const dir = input.cwd ?? input.workdir ?? input.working_directory;
    if (typeof dir === 'string' && dir !== '') cwd = dir;
  } else if (call.kind === 'execute') {
    command = commandLineFrom(input);
  }
  command = resolved.command ?? command;
  const found = command !== undefined || paths.length > 0 || diffs.length > 0 || changes.length > 0;
  const shown = command === undefined ? text : text.map((t) => withoutCommand(t, command));
  return {
    command,
    cwd,
    paths,
    diffs,
    ...(changes.length > 0 ? { changes } : {}),
    text: shown.filter((t) => t.trim() !== ''),
    rawInput: found || input === undefined || input === null ? undefined : input,
  };
}

function collectContent(
  item: ToolCallContent,
  { diffs, changes, text }: { diffs: Diff[]; changes: FileChange[]; text: string[] },
  addPath: (path: unknown) => void,
): void {
  if (isUnknownVariant(item)) return;
  if (item.type === 'diff') {
    diffs.push(item);
    addPath(item.path);
  } else if (item.type === 'file_change') {
    changes.push(item);
    addPath(item.path);
  } else if (item.type === 'content' && !isUnknownVariant(item.content) && item.content.type === 'text') {
    if (item.content.text.trim() !== '') text.push(item.content.text);
  }
}
