/**
 * Permission rules in words, for the rules screen and for the rule a remembered answer would
 * create (shown in the permission modal).
 */
import type { PermissionRule, RememberedRule } from '@acp-kit/client';
import { displayPath } from '../../text/paths.js';

/** A rule in one line: action, kinds, command or path (relative to `cwd` when given). */
export function ruleSummary(rule: RememberedRule, cwd?: string): string {
  const kinds = rule.kinds ? rule.kinds.join(', ') : 'anything';
  const what = rule.command ? ` \`${rule.command}\`` : rule.path ? ` ${displayPath(rule.path, cwd)}` : '';
  return `${rule.action} ${kinds}${what}`;
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
