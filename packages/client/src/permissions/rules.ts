/**
 * Permission rules: what the user allowed, denied or wants to be asked about, by agent, tool
 * kind, path glob and command (a prefix, or exact words). A rule matches an operation when every
 * condition it sets matches; a rule without conditions matches everything. An allow rule covers
 * environment variables off the allow list only when it names them (`env`).
 */
import picomatch from 'picomatch';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ClientError } from '../errors.js';
import { visibleText } from '../text/visible-text.js';
import { isRecord, isStringArray } from '../util/json-file.js';
import { isValidEnvName, type EnvVariable } from './env-allow-list.js';
import { parseSimpleCommand, simpleArgv, startsWithWords, type CommandSpec } from './shell-words.js';

/** What a rule does. */
export type RuleAction = 'allow' | 'deny' | 'ask';

/**
 * How long a remembered answer lasts: this request only, this session, this project (saved, limited
 * to the project directory) or always (saved).
 */
export type PermissionScope = 'once' | 'session' | 'project' | 'always';

/** The tool kinds of ACP, plus whatever newer agents send. */
export const TOOL_KINDS = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
];

/** The values a rule lets an environment variable take: any (`true`), this one, or one of these. */
export type EnvValues = true | string | string[];

/** A permission rule (saved in `rules.json`, or kept for one session). */
export interface PermissionRule {
  id: string;
  action: RuleAction;
  /** Catalog id of the agent; absent: every agent. */
  agent?: string;
  /** Tool kinds; absent: every kind. */
  kinds?: string[];
  /** Path glob (picomatch syntax), absolute or relative to the project; every path involved must match. */
  path?: string;
  /** Command prefix, a simple command (`git status`); matches simple commands starting with its words. */
  command?: string;
  /** With `command`: the command must be exactly its words, no more (a remembered answer's rule). */
  exact?: boolean;
  /**
   * Allow rules only: environment variables off the allow list that the command may set, each
   * with the values it may take. Without it, a command setting such a variable is not covered.
   */
  env?: Record<string, EnvValues>;
  /** Absolute project directory: the rule applies only to sessions whose cwd is inside it. */
  project?: string;
  createdAt?: string;
  note?: string;
}

/** What an operation is, for matching rules and applying defaults. */
export interface PermissionSubject {
  /** Where the question comes from. */
  source: 'permission_request' | 'fs_read' | 'fs_write' | 'terminal';
  agentId: string;
  /** ACP tool kind (`read`, `edit`, `execute`…; `other` when unknown). */
  kind: string;
  /** Absolute paths involved. */
  paths: string[];
  /**
   * Of a permission request: the paths a client shows the user (its locations and diffs), as
   * opposed to paths found only in `rawInput`.
   */
  shownPaths?: string[];
  /** The command, for `execute`. */
  command?: CommandSpec;
  /** The command as one line, shown whole to the user. */
  commandText?: string;
  /** The session's working directory (the project). */
  cwd: string;
  /** Some path is outside the session's roots (or the command's cwd is). */
  outsideRoots: boolean;
  /** Some path looks like a secret file. */
  secret: boolean;
  /**
   * The file has other hard links (a regular file with more than one link): its other names may
   * be outside the roots, so it is treated as outside them.
   */
  hardLinked?: boolean;
  /**
   * Of a command: the environment variables it sets (that change something), with their values,
   * as the request gives them (the terminal's, or those in a tool call's raw input).
   */
  env?: EnvVariable[];
  /** The names among {@link env} that are off the allow list: they need explicit approval. */
  sensitiveEnv?: string[];
  /** Of a command: the working directory it asks for (absolute), when it names one. */
  commandCwd?: string;
  /** The tool call's title, for display. */
  title?: string;
  toolCallId?: string;
  /**
   * Of a permission request: the agent's to-do list or plan tool, touching no path and running no
   * command (Gemini CLI asks before `write_todos`): not an action on the workspace.
   */
  planTool?: boolean;
  /**
   * Of an fs read: the file's identity and version (device, inode, size, modification time), to
   * recognise a file the agent wrote in this session that nobody changed since.
   */
  fileStamp?: string;
}

/** Whether the subject needs an explicit answer (a rule naming it, or the user) rather than a broad allow. */
export function needsExplicitApproval(subject: PermissionSubject): boolean {
  return subject.secret || (subject.sensitiveEnv?.length ?? 0) > 0;
}

/** Whether `path` is `dir` or inside it (lexically; both absolute). */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Whether `rule` matches `subject`. */
export function ruleMatches(rule: PermissionRule, subject: PermissionSubject): boolean {
  if (rule.agent !== undefined && rule.agent !== subject.agentId) return false;
  if (rule.kinds !== undefined && !rule.kinds.includes(subject.kind)) return false;
  if (rule.project !== undefined && !isInside(resolve(subject.cwd), resolve(rule.project))) return false;
  if (rule.path !== undefined) {
    if (subject.paths.length === 0) return false;
    const base = rule.project ?? subject.cwd;
    const pattern = isAbsolute(rule.path) ? rule.path : join(base, rule.path);
    const match = picomatch(pattern, { dot: true });
    if (!subject.paths.every((path) => match(path))) return false;
  }
  if (rule.command !== undefined) {
    const words = parseSimpleCommand(rule.command);
    const argv = subject.command ? simpleArgv(subject.command) : undefined;
    if (!words || !argv || !startsWithWords(argv, words)) return false;
    if (rule.exact === true && argv.length !== words.length) return false;
  }
  return true;
}

/**
 * Whether an allowing `rule` is explicit enough for a subject that needs explicit approval: it
 * names every variable off the allow list the command sets, with its value, and it names the path
 * of a secret.
 */
export function ruleIsExplicitFor(rule: PermissionRule, subject: PermissionSubject): boolean {
  for (const name of subject.sensitiveEnv ?? []) {
    const value = subject.env?.find((variable) => variable.name === name)?.value;
    if (value === undefined || !ruleAllowsEnv(rule, name, value)) return false;
  }
  return !subject.secret || rule.path !== undefined;
}

/** Whether `rule` names the variable `name` with `value` among the values it allows. */
export function ruleAllowsEnv(rule: Pick<PermissionRule, 'env'>, name: string, value: string): boolean {
  if (!rule.env || !Object.hasOwn(rule.env, name)) return false;
  const allowed = rule.env[name];
  return allowed === true || allowed === value || (Array.isArray(allowed) && allowed.includes(value));
}

/**
 * Validates a rule read from a file or given on the command line.
 * Throws CONFIG_INVALID naming the problem.
 */
export function parseRule(raw: unknown, where: string): PermissionRule {
  const fail = (message: string): never => {
    throw new ClientError('CONFIG_INVALID', `${where}: ${message}`);
  };
  if (!isRecord(raw)) return fail('a rule must be an object');
  if (typeof raw.id !== 'string' || raw.id === '') fail('"id" must be a non-empty string');
  if (raw.action !== 'allow' && raw.action !== 'deny' && raw.action !== 'ask') {
    fail('"action" must be "allow", "deny" or "ask"');
  }
  const rule: PermissionRule = { id: raw.id as string, action: raw.action as RuleAction };
  if (raw.agent !== undefined)
    rule.agent = typeof raw.agent === 'string' ? raw.agent : fail('"agent" must be a string');
  if (raw.kinds !== undefined) {
    if (!isStringArray(raw.kinds) || raw.kinds.length === 0)
      fail('"kinds" must be a non-empty array of strings');
    rule.kinds = raw.kinds as string[];
  }
  if (raw.path !== undefined) {
    if (typeof raw.path !== 'string' || raw.path === '' || raw.path.includes('\0'))
      fail('"path" must be a glob');
    rule.path = raw.path as string;
  }
  if (raw.command !== undefined) {
    if (typeof raw.command !== 'string' || !parseSimpleCommand(raw.command)) {
      fail('"command" must be a simple command (words only, no ; | & $ or redirections)');
    }
    rule.command = raw.command as string;
  }
  if (raw.exact !== undefined) {
    if (typeof raw.exact !== 'boolean') fail('"exact" must be true or false');
    if (raw.command === undefined) fail('"exact" needs a "command"');
    if (raw.exact === true) rule.exact = true;
  }
  if (raw.env !== undefined) rule.env = parseRuleEnv(raw.env, rule.action, fail);
  if (raw.project !== undefined) {
    if (typeof raw.project !== 'string' || !isAbsolute(raw.project))
      fail('"project" must be an absolute path');
    rule.project = raw.project as string;
  }
  if (typeof raw.createdAt === 'string') rule.createdAt = raw.createdAt;
  if (typeof raw.note === 'string') rule.note = raw.note;
  return rule;
}

/** Validates the `env` of a rule: names, and for each `true`, a value or a non-empty list of values. */
function parseRuleEnv(
  raw: unknown,
  action: RuleAction,
  fail: (message: string) => never,
): Record<string, EnvValues> {
  if (action !== 'allow') fail('"env" is for allow rules only (it names what an allowed command may set)');
  if (!isRecord(raw) || Object.keys(raw).length === 0)
    fail('"env" must be an object: {"NAME": true | "value" | ["value", …]}');
  const env: Record<string, EnvValues> = {};
  for (const [name, values] of Object.entries(raw as Record<string, unknown>)) {
    if (!isValidEnvName(name)) fail(`"env": ${JSON.stringify(name).slice(0, 80)} is not a variable name`);
    const valid =
      values === true ||
      (typeof values === 'string' && !values.includes('\0')) ||
      (isStringArray(values) && values.length > 0 && values.every((value) => !value.includes('\0')));
    if (!valid) fail(`"env": ${name} must be true (any value), a value or a list of values`);
    Object.defineProperty(env, name, { value: values, enumerable: true, writable: true, configurable: true });
  }
  return env;
}

/**
 * A rule's variables for display, `NAME=VALUE` each, invisible characters escaped (a remembered
 * rule holds what the agent sent): `words.any` stands for any value, `words.or` joins the values.
 */
export function ruleEnvText(env: PermissionRule['env'], words: { any: string; or: string }): string[] {
  return Object.entries(env ?? {}).map(
    ([name, values]) =>
      `${visibleText(name)}=${
        values === true
          ? words.any
          : [values]
              .flat()
              .map((value) => visibleText(value))
              .join(words.or)
      }`,
  );
}

/** The scope a saved or session rule has. */
export function ruleScope(rule: PermissionRule, session: boolean): PermissionScope {
  if (session) return 'session';
  return rule.project !== undefined ? 'project' : 'always';
}
