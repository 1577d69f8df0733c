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

/** Most options of one permission request shown and answered with; the rest are dropped. */
export const MAX_PERMISSION_OPTIONS = 64;

/**
 * The options a request can safely be shown and answered with: at most
 * {@link MAX_PERMISSION_OPTIONS} (a reject option, when offered, always among them), one per id,
 * and none whose id also names an option of another meaning — answering "reject" with an id that
 * also names "allow" would let the agent read it as allow. `problems` says what was dropped.
 *
 * @example
 * normalizeOptions([
 *   { optionId: 'x', name: 'Allow', kind: 'allow_once' },
 *   { optionId: 'x', name: 'Reject', kind: 'reject_once' },
 * ]).options; // [] — a deny is then answered `cancelled`
 */
export function normalizeOptions(options: readonly PermissionOption[]): {
  options: PermissionOption[];
  problems: string[];
} {
  const problems: string[] = [];
  const meanings = new Map<string, Set<string>>();
  for (const option of options) {
    const set = meanings.get(option.optionId) ?? new Set<string>();
    set.add(decisionOfOption(option));
    meanings.set(option.optionId, set);
  }
  const seen = new Set<string>();
  let ambiguous = 0;
  let repeated = 0;
  const unique: PermissionOption[] = [];
  for (const option of options) {
    if ((meanings.get(option.optionId)?.size ?? 0) > 1) ambiguous++;
    else if (seen.has(option.optionId)) repeated++;
    else {
      seen.add(option.optionId);
      unique.push(option);
    }
  }
  if (ambiguous > 0)
    problems.push(
      'the agent used one permission option id for options that mean different things; those options were left out',
    );
  if (repeated > 0) problems.push('the agent offered the same permission option id twice; kept the first');
  if (unique.length <= MAX_PERMISSION_OPTIONS) return { options: unique, problems };
  problems.push(
    `the agent offered ${unique.length} permission options; kept the first ${MAX_PERMISSION_OPTIONS}`,
  );
  const kept = unique.slice(0, MAX_PERMISSION_OPTIONS);
  const reject = optionFor(unique, 'deny');
  if (reject && !optionFor(kept, 'deny')) kept[MAX_PERMISSION_OPTIONS - 1] = reject;
  return { options: kept, problems };
}
