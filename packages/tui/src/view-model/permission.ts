/**
 * The operation a permission request is about, in the exact form the user must see: the full
 * command line, every path, every diff. Derived from the request's tool call and the raw input
 * shapes real agents send; the client engine may supply its own (already resolved) version.
 */
import type { Diff, PermissionOption, ToolCallContent } from '@acp-kit/protocol';
import { isUnknownVariant } from '@acp-kit/protocol';
import type { ToolCallView } from './tool-call.js';

/** What the agent wants to do. */
export interface PermissionOperation {
  /** The command line, exactly as it will run (never shortened). */
  readonly command?: string;
  readonly cwd?: string;
  /** Paths touched, with a line when known. */
  readonly paths: readonly { readonly path: string; readonly line?: number | null }[];
  readonly diffs: readonly Diff[];
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

/**
 * Reads the operation out of a tool call: the command (`execute` calls), paths from locations,
 * diffs and raw input, text content. The raw input is kept when no command, path or diff was found.
 */
export function describePermissionOperation(call: ToolCallView): PermissionOperation {
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
  const text: string[] = [];
  for (const item of call.content) collectContent(item, diffs, text, addPath);
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
  const found = command !== undefined || paths.length > 0 || diffs.length > 0;
  return {
    command,
    cwd,
    paths,
    diffs,
    text,
    rawInput: found || input === undefined || input === null ? undefined : input,
  };
}

function collectContent(
  item: ToolCallContent,
  diffs: Diff[],
  text: string[],
  addPath: (path: unknown) => void,
): void {
  if (isUnknownVariant(item)) return;
  if (item.type === 'diff') {
    diffs.push(item);
    addPath(item.path);
  } else if (item.type === 'content' && !isUnknownVariant(item.content) && item.content.type === 'text') {
    if (item.content.text.trim() !== '') text.push(item.content.text);
  }
}
