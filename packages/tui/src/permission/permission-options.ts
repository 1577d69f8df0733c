/**
 * Ordering and shortcuts of permission options: grouped by kind (allow, reject, other), numbered
 * in display order, and with a letter per kind when only one option has that kind.
 */
import type { PermissionOption } from '@acp-kit/protocol';
import type { KeyAction } from '../keys/key-bindings.js';

/** The groups options are shown in. */
export type PermissionGroup = 'allow' | 'reject' | 'other';

/** An option as shown: its group, its number (1-based) and its letter action if any. */
export interface ShownOption {
  readonly option: PermissionOption;
  readonly group: PermissionGroup;
  readonly number: number;
  readonly letterAction?: KeyAction;
}

const KIND_ORDER: readonly string[] = ['allow_once', 'allow_always', 'reject_once', 'reject_always'];

const KIND_ACTIONS: Readonly<Record<string, KeyAction>> = {
  allow_once: 'permission.allowOnce',
  allow_always: 'permission.allowAlways',
  reject_once: 'permission.rejectOnce',
  reject_always: 'permission.rejectAlways',
};

/** The group of an option kind. */
export function permissionGroup(kind: string): PermissionGroup {
  if (kind === 'allow_once' || kind === 'allow_always') return 'allow';
  if (kind === 'reject_once' || kind === 'reject_always') return 'reject';
  return 'other';
}

/**
 * Options in display order: allow once, allow always, reject once, reject always, then unknown
 * kinds; the agent's order is kept within a kind.
 */
export function arrangePermissionOptions(options: readonly PermissionOption[]): ShownOption[] {
  const rank = (kind: string): number => {
    const i = KIND_ORDER.indexOf(kind);
    return i < 0 ? KIND_ORDER.length : i;
  };
  const sorted = options
    .map((option, index) => ({ option, index }))
    .sort((a, b) => rank(a.option.kind) - rank(b.option.kind) || a.index - b.index)
    .map((entry) => entry.option);
  const perKind = new Map<string, number>();
  for (const option of options) perKind.set(option.kind, (perKind.get(option.kind) ?? 0) + 1);
  return sorted.map((option, i) => {
    const action = KIND_ACTIONS[option.kind];
    const unique = perKind.get(option.kind) === 1;
    return {
      option,
      group: permissionGroup(option.kind),
      number: i + 1,
      ...(action && unique ? { letterAction: action } : {}),
    };
  });
}
