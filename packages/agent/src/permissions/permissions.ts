/**
 * Deciding whether a tool call may run: the mode's policy first, then a decision remembered for
 * the session, then `session/request_permission`.
 */
import type { PermissionAnswer, PermissionOption, PermissionQuestion } from '../core/client-port.js';
import { decide, modeName, type PermissionAction } from '../modes/modes.js';
import type { Session } from '../session/session.js';

/** What a tool call needs permission for. */
export interface PermissionNeed {
  action: PermissionAction;
  /** The call touches a path outside the workspace roots. */
  outside: boolean;
  /**
   * Key under which `allow_always` / `reject_always` are remembered for the session (for example
   * `edit` or `execute:npm`). Without a key only the "once" options are offered.
   */
  key?: string;
  /** What "always" covers, completing "Always allow …" (for example "file edits"). */
  scope?: string;
  /** Name of the allow option, when "Allow" does not say enough (leaving plan mode). */
  allowLabel?: string;
  /** Name of the reject option. */
  rejectLabel?: string;
}

/**
 * How the decision was reached, reported in `rawOutput` and to the model: `client` when the client
 * answered by its own policy or rules without asking its user (a headless `acp run`).
 */
export type DecisionSource = 'mode' | 'remembered' | 'user' | 'client';

export type PermissionResult =
  | { outcome: 'allowed'; source: DecisionSource }
  | { outcome: 'rejected'; source: DecisionSource; reason: string }
  /** The request was cancelled (turn cancelled, or the client answered `cancelled`): do not run. */
  | { outcome: 'cancelled' };

const OPTION_IDS = {
  allowOnce: 'allow_once',
  allowAlways: 'allow_always',
  rejectOnce: 'reject_once',
  rejectAlways: 'reject_always',
} as const;

/** The options offered for `need`: always allow/reject once, plus the "always" pair when it has a key. */
export function permissionOptions(need: PermissionNeed): PermissionOption[] {
  const options: PermissionOption[] = [
    { optionId: OPTION_IDS.allowOnce, name: need.allowLabel ?? 'Allow', kind: 'allow_once' },
  ];
  if (need.key) {
    options.push({
      optionId: OPTION_IDS.allowAlways,
      name: `Always allow ${need.scope ?? 'this'} in this session`,
      kind: 'allow_always',
    });
  }
  options.push({ optionId: OPTION_IDS.rejectOnce, name: need.rejectLabel ?? 'Reject', kind: 'reject_once' });
  if (need.key) {
    options.push({
      optionId: OPTION_IDS.rejectAlways,
      name: `Always reject ${need.scope ?? 'this'} in this session`,
      kind: 'reject_always',
    });
  }
  return options;
}

function describeAction(action: PermissionAction, outside: boolean): string {
  const where = outside ? ' outside the workspace' : '';
  switch (action) {
    case 'read':
      return `reading files${where}`;
    case 'edit':
      return `editing files${where}`;
    case 'execute':
      return 'running commands';
    case 'mcp':
    case 'mcp-read':
      return 'using MCP tools that change things';
    case 'switch_mode':
      return 'switching modes';
  }
}

/**
 * Decides whether the tool call `toolCall` may run, asking the user when the mode says so and no
 * decision is remembered. While the user is asked, the turn reports that it waits for them.
 *
 * @example
 * const result = await authorize(session, { toolCallId, title: 'Edit a.ts', kind: 'edit' }, { action: 'edit', outside: false, key: 'edit', scope: 'file edits' }, signal);
 * if (result.outcome !== 'allowed') return;
 */
export async function authorize(
  session: Session,
  toolCall: PermissionQuestion['toolCall'],
  need: PermissionNeed,
  signal: AbortSignal,
): Promise<PermissionResult> {
  const policy = decide(session.mode, need.action, need.outside);
  if (policy === 'allow') return { outcome: 'allowed', source: 'mode' };
  if (policy === 'deny') {
    return {
      outcome: 'rejected',
      source: 'mode',
      reason: `${modeName(session.mode)} mode does not allow ${describeAction(need.action, need.outside)}.`,
    };
  }
  const remembered = need.key ? session.remembered(need.key) : undefined;
  if (remembered === 'allow') return { outcome: 'allowed', source: 'remembered' };
  if (remembered === 'reject') {
    return {
      outcome: 'rejected',
      source: 'remembered',
      reason: 'The user chose to always reject this in this session.',
    };
  }
  if (signal.aborted) return { outcome: 'cancelled' };

  let optionId: string;
  let byClient: string | undefined;
  try {
    const question: PermissionQuestion = {
      title: toolCall.title ?? 'Allow this tool call?',
      toolCall,
      options: permissionOptions(need),
    };
    const answer: PermissionAnswer = await session.whileBlocked(() =>
      session.client.requestPermission(session.id, question, signal),
    );
    if (answer.outcome !== 'selected') return { outcome: 'cancelled' };
    optionId = answer.optionId;
    byClient = answer.decidedBy;
  } catch (error) {
    // Aborted by the turn, or the connection ended: nothing may run.
    if (signal.aborted || session.client.isClosed) return { outcome: 'cancelled' };
    session.logger.log('warn', 'permission request failed', { sessionId: session.id, error });
    return {
      outcome: 'rejected',
      source: 'user',
      reason: 'The client could not ask the user for permission.',
    };
  }

  if (byClient !== undefined) {
    // Not remembered: the client's policy answers again next time, and it may change.
    if (optionId === OPTION_IDS.allowOnce || optionId === OPTION_IDS.allowAlways)
      return { outcome: 'allowed', source: 'client' };
    if (optionId === OPTION_IDS.rejectOnce || optionId === OPTION_IDS.rejectAlways)
      return {
        outcome: 'rejected',
        source: 'client',
        reason: `The client's permission policy rejected this without asking anyone: ${byClient}.`,
      };
  }
  switch (optionId) {
    case OPTION_IDS.allowOnce:
      return { outcome: 'allowed', source: 'user' };
    case OPTION_IDS.allowAlways:
      if (need.key) session.remember(need.key, 'allow');
      return { outcome: 'allowed', source: 'user' };
    case OPTION_IDS.rejectAlways:
      if (need.key) session.remember(need.key, 'reject');
      return {
        outcome: 'rejected',
        source: 'user',
        reason: 'The user rejected this and all like it in this session.',
      };
    case OPTION_IDS.rejectOnce:
      return { outcome: 'rejected', source: 'user', reason: 'The user rejected this tool call.' };
    default:
      // Never guess on an option we did not offer.
      session.logger.log('warn', 'client selected an unknown permission option', { sessionId: session.id });
      return { outcome: 'rejected', source: 'user', reason: 'The client answered with an unknown option.' };
  }
}
