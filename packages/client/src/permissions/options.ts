/**
 * Turning a decision into the answer to `session/request_permission`: always one of the options
 * the agent offered, its id echoed exactly.
 */
import type { PermissionOption, RequestPermissionOutcome } from '@acp-kit/protocol';

/** The decision behind an answer. */
export type PermissionDecision = 'allow' | 'deny';

/**
 * Picks the offered option that carries out `decision`: a one-time option when offered (our own
 * rules remember answers; the agent's "always" may outlive them), else the "always" one.
 * Undefined when the agent offered none of that kind.
 */
export function optionFor(
  options: readonly PermissionOption[],
  decision: PermissionDecision,
): PermissionOption | undefined {
  const order = decision === 'allow' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const option = options.find((candidate) => candidate.kind === kind);
    if (option) return option;
  }
  return undefined;
}

/** What an offered option means: allow, deny, or unknown (a kind this schema does not know). */
export function decisionOfOption(option: PermissionOption): PermissionDecision | 'unknown' {
  if (option.kind === 'allow_once' || option.kind === 'allow_always') return 'allow';
  if (option.kind === 'reject_once' || option.kind === 'reject_always') return 'deny';
  return 'unknown';
}

/**
 * The outcome to send for `decision`. Denying without a reject option answers `cancelled` (the
 * agent then does not run the tool); allowing without an allow option cannot be done and also
 * answers `cancelled`, reported through `allowed: false`.
 */
export function outcomeFor(
  options: readonly PermissionOption[],
  decision: PermissionDecision,
): { outcome: RequestPermissionOutcome; allowed: boolean; option?: PermissionOption } {
  const option = optionFor(options, decision);
  if (!option) return { outcome: { outcome: 'cancelled' }, allowed: false };
  return {
    outcome: { outcome: 'selected', optionId: option.optionId },
    allowed: decision === 'allow',
    option,
  };
}
