/**
 * A pending engine permission question as the permission modal shows it, and the answer the
 * engine expects back.
 */
import {
  rememberedRule,
  visibleText,
  type PermissionAnswer,
  type PermissionAsk,
  type PermissionScope,
  type RememberedRule,
  type SessionState,
  type ToolCallItem,
} from '@acp-kit/client';
import { resolve } from 'node:path';
import { isUnknownVariant, type Diff, type PermissionOption, type ToolKind } from '@acp-kit/protocol';
import {
  describePermissionOperation,
  type PermissionOperation,
  type PermissionRequestView,
} from '../../view-model/permission.js';
import {
  applyToolCallUpdate,
  toolCallView,
  type DiffPlacementView,
  type ToolCallView,
} from '../../view-model/tool-call.js';
import type { HunkDecision } from '../../diff/review-hunks.js';
import { arrangePermissionOptions } from '../../permission/permission-options.js';
import { ruleSummary } from './rule-view.js';

/** Options offered for the engine's own checks (fs and terminal calls carry none from the agent). */
export const LOCAL_OPTIONS: readonly PermissionOption[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
];

const SOURCE_TITLES: Readonly<Record<PermissionAsk['source'], string>> = {
  permission_request: 'Run a tool',
  fs_read: 'Read a file',
  fs_write: 'Write a file',
  terminal: 'Run a command',
};

/** The tool call the question names, as the session knows it (announced earlier), if any. */
function known(ask: PermissionAsk, state: SessionState | undefined): ToolCallItem | undefined {
  const index = ask.toolCallId !== undefined ? state?.toolCallIndex[ask.toolCallId] : undefined;
  const item = index !== undefined ? (state?.items[index] as ToolCallItem | undefined) : undefined;
  return item?.kind === 'tool_call' ? item : undefined;
}

/**
 * Where the question's diffs are in their files: as the engine placed them for the question (the
 * hunk review numbers its lines from there too), else as it placed the announced call's, matched
 * by content (the request may carry its own copy of the content).
 */
function diffPlacementsOf(
  diffs: readonly Diff[],
  ask: PermissionAsk,
  call: ToolCallItem | undefined,
  cwd: string,
): (DiffPlacementView | null | undefined)[] | undefined {
  const placed = diffs.map((diff) => {
    const same = (other: { path: string; oldText?: string | null; newText: string }): boolean =>
      resolve(cwd, other.path) === resolve(cwd, diff.path) &&
      (other.oldText ?? null) === (diff.oldText ?? null) &&
      other.newText === diff.newText;
    const asked = ask.diffs?.find(same);
    if (asked?.placement) return asked.placement;
    const index =
      call?.content.findIndex((item) => !isUnknownVariant(item) && item.type === 'diff' && same(item)) ?? -1;
    return index === -1 ? undefined : call?.diffPlacements?.[index];
  });
  return placed.some((placement) => placement != null) ? placed : undefined;
}

/** The tool call a question is about: the one announced earlier, updated by the request's copy. */
function toolCallOf(ask: PermissionAsk, state: SessionState | undefined): ToolCallView {
  const item = known(ask, state);
  const base: ToolCallView | undefined = item ? toolCallView(item) : undefined;
  if (ask.toolCall) return applyToolCallUpdate(base, ask.toolCall);
  return (
    base ?? {
      toolCallId: ask.toolCallId ?? ask.key,
      title: ask.title ?? SOURCE_TITLES[ask.source],
      kind: ask.kind as ToolKind,
      status: 'pending',
      content: [],
      locations: ask.paths.map((path) => ({ path })),
    }
  );
}

/** The view the permission prompt renders. */
export function permissionRequestView(
  ask: PermissionAsk,
  state: SessionState | undefined,
): PermissionRequestView {
  const toolCall = toolCallOf(ask, state);
  const described = describePermissionOperation(
    toolCall,
    ask.command !== undefined ? { command: ask.command } : {},
  );
  // The engine's own question about a write carries the change (the tool call has no diff).
  const diffs: readonly Diff[] =
    described.diffs.length > 0 ? described.diffs : (ask.diffs ?? []).map((diff) => ({ ...diff }));
  // The same file can come as a location (absolute) and in the raw input (relative): show it once.
  const cwd = state?.cwd ?? '/';
  const paths: { path: string; line?: number | null }[] = [];
  const all: { readonly path: string; readonly line?: number | null }[] = [
    ...described.paths,
    ...ask.paths.map((path) => ({ path })),
  ];
  // A diff's header names its file already: no `path` line for it as well.
  const diffed = new Set(diffs.map((diff) => resolve(cwd, diff.path)));
  for (const entry of all) {
    const absolute = resolve(cwd, entry.path);
    if (diffed.has(absolute)) continue;
    const existing = paths.find((p) => p.path === absolute);
    if (!existing) paths.push(entry.line != null ? { path: absolute, line: entry.line } : { path: absolute });
    else if (existing.line == null && entry.line != null) existing.line = entry.line;
  }
  const placements = diffPlacementsOf(diffs, ask, known(ask, state), cwd);
  // What the engine read from the real request (a terminal's own cwd and env) wins over the raw input.
  const cwdAsked = ask.commandCwd ?? described.cwd;
  const operation: PermissionOperation = {
    ...described,
    diffs,
    paths,
    ...(cwdAsked !== undefined ? { cwd: cwdAsked } : {}),
    ...(ask.env && ask.env.length > 0 ? { env: ask.env } : {}),
    ...(placements ? { diffPlacements: placements } : {}),
  };
  return { toolCall, options: ask.options ?? LOCAL_OPTIONS, operation };
}

/** Warnings about what makes the question special (outside the roots, a secret, variables off the allow list). */
export function permissionWarnings(ask: PermissionAsk): string[] {
  const warnings: string[] = [];
  if (ask.outsideRoots) warnings.push('Outside the session’s directories');
  if (ask.secret) warnings.push('Looks like a secret file');
  if (ask.sensitiveEnv && ask.sensitiveEnv.length > 0)
    warnings.push(
      `Sets ${ask.sensitiveEnv.map((name) => visibleText(name)).join(', ')}: they can change what the command runs`,
    );
  return warnings;
}

/** Scopes in the order `r` cycles through them. */
export const SCOPES: readonly PermissionScope[] = ['once', 'session', 'project', 'always'];

/** What remembering an answer with `scope` means, in words. */
export function scopeLabel(scope: PermissionScope): string {
  switch (scope) {
    case 'once':
      return 'just this once';
    case 'session':
      return 'as a rule for this session';
    case 'project':
      return 'as a saved rule for this project';
    case 'always':
      return 'as a saved rule everywhere';
  }
}

/** The engine's answer for the option picked with the remembered scope. */
export function answerFor(ask: PermissionAsk, optionId: string, scope: PermissionScope): PermissionAnswer {
  const options = ask.options ?? LOCAL_OPTIONS;
  const option = options.find((candidate) => candidate.optionId === optionId);
  const kind = option?.kind ?? 'reject_once';
  const decision =
    kind === 'allow_once' || kind === 'allow_always'
      ? 'allow'
      : kind === 'reject_once' || kind === 'reject_always'
        ? 'deny'
        : 'allow';
  // An agent's "always" option means the user wants it remembered: at least for the session.
  const always = kind === 'allow_always' || kind === 'reject_always';
  const effective: PermissionScope = scope === 'once' && always ? 'session' : scope;
  return { decision, scope: effective, ...(ask.options ? { optionId } : {}) };
}

/** The outcome of reviewing one of the question's diffs hunk by hunk. */
export interface ReviewedDiff {
  /** The diff's text with only the accepted hunks. */
  readonly content: string;
  readonly decisions: readonly HunkDecision[];
}

/**
 * The answer to a question whose changes the user reviewed hunk by hunk: the agent's first allow
 * option with what was accepted of each diff, or its first reject option when every hunk was
 * rejected; undefined when the agent offers no such option.
 */
export function reviewedAnswer(
  ask: PermissionAsk,
  reviewed: readonly ReviewedDiff[],
  scope: PermissionScope,
): PermissionAnswer | undefined {
  const rejectedAll =
    reviewed.some((diff) => diff.decisions.length > 0) &&
    reviewed.every((diff) => diff.decisions.every((decision) => decision === 'reject'));
  const group = rejectedAll ? 'reject' : 'allow';
  const option = arrangePermissionOptions(ask.options ?? LOCAL_OPTIONS).find((o) => o.group === group);
  if (!option) return undefined;
  const answer = answerFor(ask, option.option.optionId, scope);
  return rejectedAll ? answer : { ...answer, acceptedTexts: reviewed.map((diff) => diff.content) };
}

/** The rule an answer with `optionId` and `scope` records: the engine's own {@link rememberedRule}. */
function ruleOf(ask: PermissionAsk, optionId: string | undefined, scope: PermissionScope) {
  return optionId === undefined ? undefined : rememberedRule(ask, answerFor(ask, optionId, scope));
}

const sameConditions = (a: RememberedRule, b: RememberedRule): boolean =>
  JSON.stringify({ ...a, action: '' }) === JSON.stringify({ ...b, action: '' });

/**
 * The rule remembering an answer with `scope` creates, in words, for allowing and for rejecting
 * (undefined for "just this once"): exactly what the engine will record.
 */
export function rememberPreview(
  ask: PermissionAsk,
  scope: PermissionScope,
  cwd?: string,
): string | undefined {
  if (scope === 'once') return undefined;
  const options = ask.options ?? LOCAL_OPTIONS;
  const allowId = options.find((o) => o.kind === 'allow_once' || o.kind === 'allow_always')?.optionId;
  const rejectId = options.find((o) => o.kind === 'reject_once' || o.kind === 'reject_always')?.optionId;
  const allow = ruleOf(ask, allowId, scope);
  const reject = ruleOf(ask, rejectId, scope);
  if (allow && reject && sameConditions(allow, reject)) {
    return `Rule: ${ruleSummary(allow, cwd)} (${reject.action} if you reject)`;
  }
  const parts: string[] = [];
  if (allow) parts.push(`if you allow: ${ruleSummary(allow, cwd)}`);
  if (reject) parts.push(`if you reject: ${ruleSummary(reject, cwd)}`);
  if (parts.length === 0)
    return 'No rule: this request cannot be remembered (a compound command or several paths)';
  if (!allow && allowId !== undefined) parts.push('allowing is not remembered (a compound command)');
  return `Rule — ${parts.join(' · ')}`;
}
