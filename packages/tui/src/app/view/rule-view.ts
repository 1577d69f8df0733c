/**
 * Permission rules in words, for the rules screen and for the rule a remembered answer would
 * create (shown in the permission modal).
 */
import { ruleEnvText, visibleText, type PermissionRule, type RememberedRule } from '@acp-kit/client';
import { displayPath } from '../../text/paths.js';

/**
 * A rule in one line: action, kinds, command (`…` when it also covers longer commands) or path
 * (relative to `cwd` when given), and the variables it lets the command set.
 */
export function ruleSummary(rule: RememberedRule, cwd?: string): string {
  const kinds = rule.kinds ? rule.kinds.join(', ') : 'anything';
  const command = rule.command ? visibleText(rule.command) + (rule.exact ? '' : ' …') : undefined;
  const what = command ? ` \`${command}\`` : rule.path ? ` ${displayPath(rule.path, cwd)}` : '';
  const env = ruleEnvText(rule.env, { any: '(any value)', or: ' or ' });
  return `${rule.action} ${kinds}${what}${env.length > 0 ? ` with ${env.join(', ')}` : ''}`;
}

/** Where a saved rule applies and when it was made. */
export function ruleDetail(rule: PermissionRule): string {
  return [
    rule.agent ? `agent ${rule.agent}` : 'every agent',
    rule.project ? `in ${rule.project}` : 'everywhere',
    rule.createdAt ? rule.createdAt.slice(0, 10) : undefined,
    rule.note,
    rule.id,
  ]
    .filter((part): part is string => !!part)
    .join(' · ');
}
