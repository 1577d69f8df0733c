/**
 * The permission policy: saved rules, rules remembered for a session, grants from answered
 * permission requests, and the base mode's defaults.
 *
 * Evaluation order: a matching deny rule wins, then a matching ask rule, then a matching allow
 * rule (for secrets only rules that name the path, for environment variables off the allow list
 * only rules that name them with their values; never under `none`), then a grant (an allowed
 * permission request of the turn, or, for a read, the agent having written the file in this
 * session, unchanged since), then the base mode:
 *
 * | base mode | reads¹ inside the roots | everything else inside the roots | outside the roots, secrets, env off the allow list |
 * |-----------|-------------------------|----------------------------------|----------------------------------------------------|
 * | `ask`     | allow                   | ask                              | ask                                                |
 * | `reads`   | allow                   | deny                             | deny                                               |
 * | `all`     | allow                   | allow                            | deny                                               |
 * | `none`    | deny                    | deny                             | deny                                               |
 *
 * ¹ `read`, `search` and `think` tool kinds, and `fs/read_text_file`; an agent's to-do list tool
 * (see {@link PermissionSubject.planTool}) likewise. A file with several hard links counts as
 * outside the roots.
 */
import { newId } from '../util/ids.js';
import { approvedContent, type ApprovedDiff } from './approved-writes.js';
import type { EnvVariable } from './env-allow-list.js';
import type { PermissionRule, PermissionSubject, RuleAction } from './rules.js';
import { needsExplicitApproval, ruleIsExplicitFor, ruleMatches } from './rules.js';
import { shellScript, simpleArgv } from './shell-words.js';

/** The base behaviour: interactive (`ask`), or one of the headless modes of `acp run --approve`. */
export type BaseMode = 'ask' | 'reads' | 'all' | 'none';

/** What the policy decided and why. */
export interface PolicyDecision {
  action: RuleAction;
  /** Why, in a few words (shown in `acp run` output and transcripts). */
  reason: string;
  /** What decided: a saved rule, a session rule, a grant, or the base mode. */
  by: 'rule' | 'session-rule' | 'grant' | 'default';
  ruleId?: string;
}

/** Permission granted by an answered permission request, covering the fs/terminal calls that carry it out. */
export interface Grant {
  kind: string;
  paths: string[];
  /**
   * The paths the user was shown (locations and diffs): only these cover what needs an explicit
   * answer (outside the roots, hard links, secrets). A path found only in the request's raw input
   * was not what the user approved.
   */
  shownPaths: string[];
  /** argv of the allowed command, when it was a simple command. */
  argv?: string[];
  /**
   * The shell script of the allowed command, exactly as shown (a compound line such as
   * `npm test && npm run lint`): the terminal that runs this very script is covered, nothing else.
   */
  script?: string;
  /** The environment variables the question showed: only these, with these values, are covered. */
  env?: EnvVariable[];
  /** The turn it was granted in; grants end with their turn. */
  turn: number;
}

const READ_KINDS = new Set(['read', 'search', 'think']);
const WRITE_KINDS = new Set(['edit', 'delete', 'move', 'other']);

/** Per-session permission state: remembered answers, grants, approved diffs and files written. */
export class SessionPermissions {
  private items: PermissionRule[] = [];
  private grants: Grant[] = [];
  private approvals: { turn: number; diffs: ApprovedDiff[] }[] = [];
  /** Real path → stamp right after the agent wrote it (see {@link PermissionSubject.fileStamp}). */
  private readonly written = new Map<string, string>();

  /** The rules remembered for this session ("for this session" answers), oldest first. */
  get rules(): readonly PermissionRule[] {
    return this.items;
  }

  /** Remembers a rule for the session; returns it with its id (`session-…`). */
  addRule(rule: Omit<PermissionRule, 'id'>): PermissionRule {
    const added: PermissionRule = { ...rule, id: newId('session') };
    this.items = [...this.items, added];
    return added;
  }

  /** Forgets a rule by id (or unique id prefix); returns it, or undefined when none or several match. */
  removeRule(idOrPrefix: string): PermissionRule | undefined {
    if (idOrPrefix === '') return undefined;
    const exact = this.items.find((rule) => rule.id === idOrPrefix);
    const candidates = exact ? [exact] : this.items.filter((rule) => rule.id.startsWith(idOrPrefix));
    if (candidates.length !== 1) return undefined;
    const removed = candidates[0] as PermissionRule;
    this.items = this.items.filter((rule) => rule !== removed);
    return removed;
  }

  /** Remembers a grant from an allowed permission request. */
  addGrant(grant: Grant): void {
    this.grants.push(grant);
    if (this.grants.length > 256) this.grants.shift();
  }

  /** Drops grants and approved diffs of turns up to `turn`. */
  endTurn(turn: number): void {
    this.grants = this.grants.filter((grant) => grant.turn > turn);
    this.approvals = this.approvals.filter((approval) => approval.turn > turn);
  }

  /** Remembers the diffs the user allowed in one question of `turn`, for the writes that follow. */
  addApproval(turn: number, diffs: readonly ApprovedDiff[]): void {
    if (diffs.length === 0) return;
    this.approvals.push({ turn, diffs: [...diffs] });
    if (this.approvals.length > 64) this.approvals.shift();
  }

  /**
   * What to write when writing `content` over `current` at one of `paths` is what the user
   * approved in a question of `turn` (the newest approval first); undefined when it is not.
   */
  approvedWrite(
    paths: readonly string[],
    turn: number,
    current: string | null,
    content: string,
  ): string | undefined {
    for (const approval of [...this.approvals].reverse()) {
      if (approval.turn !== turn) continue;
      const diffs = approval.diffs.filter((diff) => paths.includes(diff.path));
      const result = diffs.length > 0 ? approvedContent(current, content, diffs) : undefined;
      if (result !== undefined) return result;
    }
    return undefined;
  }

  /** Notes a file the agent wrote, with its stamp right after the write. */
  noteWritten(path: string, stamp: string): void {
    this.written.delete(path);
    this.written.set(path, stamp);
    if (this.written.size > 1024) this.written.delete(this.written.keys().next().value as string);
  }

  /** Whether an fs read is of a file the agent wrote in this session, inside the roots, unchanged since. */
  wroteUnchanged(subject: PermissionSubject): boolean {
    if (subject.source !== 'fs_read' || subject.outsideRoots || subject.hardLinked === true) return false;
    const [path] = subject.paths;
    return (
      subject.fileStamp !== undefined && path !== undefined && this.written.get(path) === subject.fileStamp
    );
  }

  /** The grant covering an fs write or terminal subject, if any. */
  findGrant(subject: PermissionSubject, turn: number): Grant | undefined {
    return this.grants.find((grant) => grant.turn === turn && grantCovers(grant, subject));
  }
}

function grantCovers(grant: Grant, subject: PermissionSubject): boolean {
  if (subject.source === 'fs_write' || subject.source === 'fs_read') {
    if (subject.source === 'fs_write' && !WRITE_KINDS.has(grant.kind)) return false;
    // What the user did not see (outside the roots, a secret behind a link) needs its own answer.
    const strict = subject.outsideRoots || subject.hardLinked === true || needsExplicitApproval(subject);
    if (grant.paths.length === 0) return subject.source === 'fs_write' && !strict;
    return strict
      ? subject.paths.every((path) => grant.shownPaths.includes(path))
      : subject.paths.some((path) => grant.paths.includes(path));
  }
  if (subject.source === 'terminal') {
    if (grant.kind !== 'execute' || !subject.command || !grantCoversEnv(grant, subject)) return false;
    const argv = simpleArgv(subject.command);
    if (
      argv &&
      grant.argv &&
      argv.length === grant.argv.length &&
      argv.every((w, i) => w === grant.argv?.[i])
    )
      return true;
    // A compound command: the same script, word for word (never one that merely starts like it).
    const script = shellScript(subject.command);
    return script !== undefined && script === grant.script;
  }
  return false;
}

/** Whether every variable off the allow list the command sets was shown with the question, with its value. */
function grantCoversEnv(grant: Grant, subject: PermissionSubject): boolean {
  return (subject.sensitiveEnv ?? []).every((name) => {
    const value = subject.env?.find((variable) => variable.name === name)?.value;
    return (
      value !== undefined && grant.env?.some((shown) => shown.name === name && shown.value === value) === true
    );
  });
}

/** Options of {@link PermissionPolicy}. */
export interface PolicyOptions {
  mode: BaseMode;
  /** Saved rules (read at each evaluation, so edits through a RuleStore apply at once). */
  savedRules?: () => readonly PermissionRule[];
  /** Extra rules, e.g. from `acp run --policy FILE`. */
  extraRules?: readonly PermissionRule[];
}

/**
 * Decides allow / deny / ask for an operation.
 *
 * @example
 * const policy = new PermissionPolicy({ mode: 'reads', savedRules: () => store.rules });
 * policy.evaluate(subject, sessionPermissions, turn).action; // 'allow'
 */
export class PermissionPolicy {
  constructor(private readonly options: PolicyOptions) {}

  get mode(): BaseMode {
    return this.options.mode;
  }

  evaluate(subject: PermissionSubject, session?: SessionPermissions, turn = 0): PolicyDecision {
    const saved = [...(this.options.savedRules?.() ?? []), ...(this.options.extraRules ?? [])];
    const sessionRules = session?.rules ?? [];
    const all: [PermissionRule, boolean][] = [
      ...sessionRules.map((rule): [PermissionRule, boolean] => [rule, true]),
      ...saved.map((rule): [PermissionRule, boolean] => [rule, false]),
    ];
    for (const action of ['deny', 'ask', 'allow'] as const) {
      if (action === 'allow' && this.options.mode === 'none') break;
      for (const [rule, inSession] of all) {
        if (rule.action !== action || !ruleMatches(rule, subject)) continue;
        if (action === 'allow' && !ruleIsExplicitFor(rule, subject)) continue;
        return {
          action,
          reason: `${inSession ? 'session rule' : 'rule'} ${rule.id}`,
          by: inSession ? 'session-rule' : 'rule',
          ruleId: rule.id,
        };
      }
    }
    if (this.options.mode !== 'none' && session && subject.source !== 'permission_request') {
      const grant = session.findGrant(subject, turn);
      if (grant)
        return {
          action: 'allow',
          reason: 'allowed by the permission request for this tool call',
          by: 'grant',
        };
      // Reading back what the agent itself wrote shows it nothing new: not asked again.
      if (session.wroteUnchanged(subject))
        return {
          action: 'allow',
          reason: 'the agent wrote this file in this session and it has not changed since',
          by: 'grant',
        };
    }
    return this.defaultDecision(subject);
  }

  private defaultDecision(subject: PermissionSubject): PolicyDecision {
    const mode = this.options.mode;
    const isRead =
      subject.source === 'fs_read' ||
      (subject.source === 'permission_request' && READ_KINDS.has(subject.kind));
    const special = subject.outsideRoots || subject.hardLinked === true || needsExplicitApproval(subject);
    const why = subject.outsideRoots
      ? 'outside the session roots'
      : subject.hardLinked
        ? 'has other hard links, possibly outside the session roots'
        : subject.secret
          ? 'looks like a secret file'
          : (subject.sensitiveEnv?.length ?? 0) > 0
            ? `sets ${subject.sensitiveEnv?.join(', ')} (off the environment allow list)`
            : '';
    if (mode === 'none')
      return { action: 'deny', reason: 'every permission request is denied (--approve none)', by: 'default' };
    if (special) {
      return mode === 'ask'
        ? { action: 'ask', reason: why, by: 'default' }
        : { action: 'deny', reason: `${why}: needs an explicit rule`, by: 'default' };
    }
    if (isRead) return { action: 'allow', reason: 'reads inside the roots are allowed', by: 'default' };
    if (subject.planTool)
      return { action: 'allow', reason: 'a to-do list is not an action on the workspace', by: 'default' };
    if (mode === 'all') return { action: 'allow', reason: 'inside the roots (--approve all)', by: 'default' };
    if (mode === 'reads')
      return { action: 'deny', reason: `${subject.kind} is not a read (--approve reads)`, by: 'default' };
    return { action: 'ask', reason: askReason(subject), by: 'default' };
  }
}

/** What needs approval, by tool kind, for the reason of a question asked by default. */
const ASKED_FOR: Readonly<Record<string, string>> = {
  edit: 'File edits need your approval',
  delete: 'Deleting files needs your approval',
  move: 'Moving files needs your approval',
  execute: 'Commands need your approval',
  fetch: 'Fetching from the network needs your approval',
  switch_mode: 'Switching modes needs your approval',
};

/**
 * Why a question is asked in `ask` mode: everything but a read asks. A tool of kind `other`
 * (MCP tools) is named by its title, not as "other".
 */
function askReason(subject: PermissionSubject): string {
  const asked = ASKED_FOR[subject.kind];
  if (asked) return asked;
  const tool = subject.title?.trim() ? `“${subject.title.trim().slice(0, 80)}”` : 'This tool';
  return `${tool} needs your approval (only reads run without asking)`;
}
