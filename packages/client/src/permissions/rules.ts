/**
 * Permission rules: what the user allowed, denied or wants to be asked about, by agent, tool
 * kind, path glob and command prefix. A rule matches an operation when every condition it sets
 * matches; a rule without conditions matches everything.
 */
import picomatch from 'picomatch';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ClientError } from '../errors.js';
import { isRecord, isStringArray } from '../util/json-file.js';
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
  /** Environment variables that change how programs load (need explicit approval). */
  sensitiveEnv?: string[];
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
    const prefix = parseSimpleCommand(rule.command);
    const argv = subject.command ? simpleArgv(subject.command) : undefined;
    if (!prefix || !argv || !startsWithWords(argv, prefix)) return false;
  }
  return true;
}

/** Whether an allowing `rule` is explicit enough for a subject that needs explicit approval. */
export function ruleIsExplicitFor(rule: PermissionRule, subject: PermissionSubject): boolean {
  if ((subject.sensitiveEnv?.length ?? 0) > 0) return false;
  return !subject.secret || rule.path !== undefined;
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
  if (raw.project !== undefined) {
    if (typeof raw.project !== 'string' || !isAbsolute(raw.project))
      fail('"project" must be an absolute path');
    rule.project = raw.project as string;
  }
  if (typeof raw.createdAt === 'string') rule.createdAt = raw.createdAt;
  if (typeof raw.note === 'string') rule.note = raw.note;
  return rule;
}

/** The scope a saved or session rule has. */
export function ruleScope(rule: PermissionRule, session: boolean): PermissionScope {
  if (session) return 'session';
  return rule.project !== undefined ? 'project' : 'always';
}
