/** Icons for tool kinds and statuses: single-cell characters that render in any terminal font. */
import type { ToolKind } from '@acp-kit/protocol';
import type { ToolCallDisplayStatus } from '../view-model/tool-call.js';

const KIND_ICONS: Readonly<Record<string, string>> = {
  read: '≡',
  edit: '✎',
  delete: '⌫',
  move: '⇄',
  search: '⌕',
  execute: '»',
  think: '∴',
  fetch: '⇣',
  switch_mode: '⇆',
  other: '•',
};

/** The icon of a tool kind (unknown kinds get the `other` icon). */
export function toolKindIcon(kind: ToolKind): string {
  return KIND_ICONS[kind] ?? '•';
}

/** Status icons; `in_progress` is drawn as a spinner instead. */
export const STATUS_ICONS: Readonly<Record<string, string>> = {
  pending: '○',
  completed: '✓',
  failed: '✗',
  cancelled: '⊘',
};

/** A word for statuses worth spelling out next to the title. */
export function statusLabel(status: ToolCallDisplayStatus): string | undefined {
  if (status === 'failed') return 'failed';
  if (status === 'cancelled') return 'cancelled';
  if (status === 'pending') return 'pending';
  if (status === 'in_progress' || status === 'completed') return undefined;
  return String(status);
}
