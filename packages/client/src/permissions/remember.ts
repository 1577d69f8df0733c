/**
 * What an answer remembers: the decision it carries (the option picked wins over the stated
 * decision) and the rule a scope beyond `once` records. The permission flow records exactly what
 * {@link rememberedRule} returns, so a UI can show the rule before the user picks a scope.
 */
import type { PermissionOption } from '@acp-kit/protocol';
import { decisionOfOption, type PermissionDecision } from './options.js';
import type { PermissionRule, PermissionScope, PermissionSubject } from './rules.js';
import { suggestRule } from './subject.js';

/** A rule as an answer records it, before the store gives it an id (and a saved rule its `createdAt`). */
export type RememberedRule = Omit<PermissionRule, 'id' | 'createdAt'>;

/** What remembering needs to know about a question (a `PermissionAsk` has it). */
export interface RememberQuestion {
  subject: PermissionSubject;
  /** The options the agent offered (permission requests only). */
  options?: readonly PermissionOption[];
}

/** What remembering needs to know about an answer (a `PermissionAnswer` has it). */
export interface RememberAnswer {
  decision: PermissionDecision;
  scope?: PermissionScope;
  optionId?: string;
}

/**
 * The decision an answer carries: that of the offered option it names (when the option's kind
 * says allow or reject), else its own. `optionId` is set only for an option the agent offered.
 */
export function answerDecision(
  answer: RememberAnswer,
  options: readonly PermissionOption[] | undefined,
): { decision: PermissionDecision; optionId?: string } {
  const decision: PermissionDecision = answer.decision === 'allow' ? 'allow' : 'deny';
  if (answer.optionId === undefined || !options) return { decision };
  const option = options.find((candidate) => candidate.optionId === answer.optionId);
  if (!option) return { decision };
  const meaning = decisionOfOption(option);
  return { decision: meaning === 'unknown' ? decision : meaning, optionId: option.optionId };
}

/**
 * The rule the permission flow records for `answer` to `question`: undefined for scope `once`, and
 * when nothing can be remembered safely (a compound shell command, several paths outside the roots).
 * Scope `session` keeps it for the session; `project` (it then carries `project`) and `always` save it.
 *
 * @example
 * const rule = rememberedRule(ask, { decision: 'allow', scope: 'project' });
 * // { action: 'allow', kinds: ['execute'], command: 'npm test', project: '/home/me/app' }
 */
export function rememberedRule(
  question: RememberQuestion,
  answer: RememberAnswer,
): RememberedRule | undefined {
  const scope = answer.scope ?? 'once';
  if (scope === 'once') return undefined;
  const { decision } = answerDecision(answer, question.options);
  return suggestRule(question.subject, decision, scope);
}
