/**
 * What a permission request is about: the tool kind, the paths it touches and the command it
 * runs, gathered from the request's tool call, the tool call announced earlier, and the raw input
 * shapes real agents use (`path`, `file_path`, `abs_path`, `command` as a line or an argv…).
 */
import type { ToolCallContent, ToolCallUpdate } from '@acp-kit/protocol';
import { isAbsolute, resolve } from 'node:path';
import { isSecretPath } from '../fs/secrets.js';
import { isRecord, isStringArray } from '../util/json-file.js';
import { effectiveEnv, envNeedingApproval, isValidEnvName, type EnvVariable } from './env-allow-list.js';
import { isInside, type PermissionRule, type PermissionScope, type PermissionSubject } from './rules.js';
import { parseSimpleCommand, quoteArgv, simpleArgv, type CommandSpec } from './shell-words.js';

const PATH_KEYS = [
  'path',
  'file_path',
  'filePath',
  'abs_path',
  'absolute_path',
  'notebook_path',
  'filename',
  'file',
  'target',
  'source',
  'destination',
  'dir',
  'directory',
];
const PATHS_KEYS = ['paths', 'files', 'file_paths'];
const COMMAND_KEYS = ['command', 'cmd', 'commandLine', 'command_line', 'script', 'argv'];
const CWD_KEYS = ['cwd', 'workdir', 'working_directory'];
/**
 * Agents' to-do list and plan tools, by the tool name a tool call id starts with (Gemini CLI's ids
 * are `<tool>__<id>` or `<tool>-<time>`; its requests carry no other sign of the tool).
 */
const PLAN_TOOL_ID = /^(?:write_todos|todo_write|todowrite|update_plan)(?:__|-|$)/i;

/** Context needed to resolve a request into a subject. */
export interface SubjectContext {
  agentId: string;
  cwd: string;
  /** The session's roots (cwd plus additional directories), absolute. */
  roots: readonly string[];
}

/** Whether an absolute path is inside one of the roots (lexically). */
export function insideRoots(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => isInside(path, root));
}

/**
 * Builds the subject of a `session/request_permission`, merging the request's tool call over the
 * one announced earlier (agents often send only the id).
 */
export function subjectFromToolCall(
  toolCall: ToolCallUpdate,
  known: Partial<ToolCallUpdate> | undefined,
  context: SubjectContext,
): PermissionSubject {
  const kind = String(toolCall.kind ?? known?.kind ?? 'other');
  const locations = toolCall.locations ?? known?.locations ?? [];
  const content = toolCall.content ?? known?.content ?? [];
  const rawInput =
    toolCall.rawInput !== undefined && toolCall.rawInput !== null ? toolCall.rawInput : known?.rawInput;
  const found = new Set<string>();
  for (const location of locations) addPath(found, location.path, context.cwd);
  for (const item of content as ToolCallContent[]) {
    if ((item as { type?: unknown }).type === 'diff')
      addPath(found, (item as { path?: unknown }).path, context.cwd);
  }
  const shownPaths = [...found];
  if (isRecord(rawInput)) {
    for (const key of PATH_KEYS) addPath(found, rawInput[key], context.cwd);
    for (const key of PATHS_KEYS) {
      const list = rawInput[key];
      if (isStringArray(list)) for (const path of list) addPath(found, path, context.cwd);
    }
  }
  const paths = [...found];
  const command = kind === 'execute' ? commandFromInput(rawInput) : undefined;
  const cwdInput = isRecord(rawInput) ? CWD_KEYS.map((key) => rawInput[key]).find(isPath) : undefined;
  const commandCwd = cwdInput !== undefined ? resolve(context.cwd, cwdInput) : undefined;
  const env = command && isRecord(rawInput) ? envFromInput(rawInput.env) : [];
  const sensitive = envNeedingApproval(env);
  const title = toolCall.title ?? known?.title ?? undefined;
  const subject: PermissionSubject = {
    source: 'permission_request',
    agentId: context.agentId,
    kind,
    paths,
    shownPaths,
    cwd: context.cwd,
    outsideRoots:
      paths.some((path) => !insideRoots(path, context.roots)) ||
      (commandCwd !== undefined && !insideRoots(commandCwd, context.roots)),
    secret: paths.some(isSecretPath),
    toolCallId: toolCall.toolCallId,
  };
  if (title) subject.title = title;
  const planKind = kind === 'other' || kind === 'think';
  if (
    planKind &&
    paths.length === 0 &&
    !command &&
    content.length === 0 &&
    PLAN_TOOL_ID.test(toolCall.toolCallId)
  )
    subject.planTool = true;
  if (command) {
    subject.command = command;
    subject.commandText = commandText(command);
  }
  if (commandCwd !== undefined) subject.commandCwd = commandCwd;
  if (env.length > 0) subject.env = env;
  if (sensitive.length > 0) subject.sensitiveEnv = sensitive;
  return subject;
}

function isPath(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !value.includes('\0');
}

/**
 * The environment a command's raw input sets, in either shape agents use (`{NAME: value}` or
 * `[{name, value}]`); entries that are not a valid name with a string value are left out.
 */
function envFromInput(raw: unknown): EnvVariable[] {
  const pairs: [unknown, unknown][] = Array.isArray(raw)
    ? raw.filter(isRecord).map((item) => [item.name, item.value])
    : isRecord(raw)
      ? Object.entries(raw)
      : [];
  const valid = pairs.filter(
    (pair): pair is [string, string] =>
      typeof pair[0] === 'string' && isValidEnvName(pair[0]) && typeof pair[1] === 'string',
  );
  return effectiveEnv(valid.map(([name, value]) => ({ name, value })));
}

function addPath(into: Set<string>, value: unknown, cwd: string): void {
  if (typeof value !== 'string' || value === '' || value.includes('\0') || value.length > 4096) return;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && !value.startsWith('file://')) return;
  const path = value.startsWith('file://') ? decodeURIComponent(value.slice('file://'.length)) : value;
  into.add(isAbsolute(path) ? resolve(path) : resolve(cwd, path));
}

/** The command of an execute tool call's raw input: a line, or an argv. */
export function commandFromInput(rawInput: unknown): CommandSpec | undefined {
  if (typeof rawInput === 'string' && rawInput !== '') return { line: rawInput };
  if (!isRecord(rawInput)) return undefined;
  for (const key of COMMAND_KEYS) {
    const value = rawInput[key];
    if (typeof value === 'string' && value !== '') {
      const args = rawInput.args;
      return isStringArray(args) && args.length > 0 ? { argv: [value, ...args] } : { line: value };
    }
    if (isStringArray(value) && value.length > 0) return { argv: value };
  }
  return undefined;
}

/** A command as one line, for people: a line as is, an argv quoted. */
export function commandText(command: CommandSpec): string {
  return 'line' in command ? command.line : quoteArgv([...command.argv]);
}

/**
 * The rule to remember an answer with, for scopes beyond `once`: the exact command (when simple;
 * allowing it names the variables off the allow list it sets, with their values), the exact paths,
 * or else the tool kind. Undefined when nothing safe can be remembered (a compound shell command:
 * remembering it would allow any command sharing its first words).
 */
export function suggestRule(
  subject: PermissionSubject,
  action: 'allow' | 'deny',
  scope: Exclude<PermissionScope, 'once'>,
): Omit<PermissionRule, 'id'> | undefined {
  const rule: Omit<PermissionRule, 'id'> = { action, kinds: [subject.kind] };
  if (scope === 'project') rule.project = subject.cwd;
  if (subject.kind === 'execute' || subject.source === 'terminal') {
    const argv = subject.command ? simpleArgv(subject.command) : undefined;
    if (!argv) return action === 'deny' ? rule : undefined;
    const line = quoteArgv(argv);
    if (!parseSimpleCommand(line)) return undefined;
    rule.command = line;
    // A deny stays a prefix (it covers more); an allow covers this command, as it was shown.
    if (action === 'allow') {
      rule.exact = true;
      const named = (subject.env ?? []).filter((variable) => subject.sensitiveEnv?.includes(variable.name));
      if (named.length > 0) rule.env = Object.fromEntries(named.map(({ name, value }) => [name, value]));
    }
    return rule;
  }
  if (subject.paths.length === 1) {
    rule.path = (subject.paths[0] as string).replace(/[*?[\]{}()!+@]/g, '\\$&');
    return rule;
  }
  if (subject.secret || subject.outsideRoots) return undefined;
  return rule;
}
