import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { useKeyBindings, useKeyLabel } from '../keys/KeyBindingsContext.js';
import { formatKeySpec } from '../keys/key-spec.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import {
  describePermissionOperation,
  permissionHeading,
  type PermissionRequestView,
} from '../view-model/permission.js';
import { toolKindIcon } from '../components/tool-icons.js';
import { AvailableWidth } from '../components/AvailableWidth.js';
import { InlineCode } from '../components/InlineCode.js';
import { OperationView } from './OperationView.js';
import type { PermissionGroup } from './permission-options.js';
import { usePermissionPrompt } from './usePermissionPrompt.js';

/** Props of {@link PermissionPrompt}. */
export interface PermissionPromptProps {
  readonly request: PermissionRequestView;
  /** Called once with the chosen option id (echo it back exactly). */
  readonly onSelect: (optionId: string) => void;
  readonly isActive?: boolean;
  /** Other permission requests waiting behind this one. */
  readonly waiting?: number;
  readonly cwd?: string;
  /** Show long diffs and raw input in full. */
  readonly expanded?: boolean;
  /** Typeahead guard: keys this soon after the prompt opens are ignored. Default 400 ms. */
  readonly armDelayMs?: number;
  /** Clock for the typeahead guard (injected by tests). */
  readonly now?: () => number;
  /** Most lines of the operation's diff, text or raw input (so the prompt fits the screen). */
  readonly maxOperationLines?: number;
  /** Opens the hunk-by-hunk review of the changes (given when the question carries some). */
  readonly onReviewHunks?: () => void;
}

const GROUP_TITLES: Readonly<Record<PermissionGroup, string>> = {
  allow: 'Allow',
  reject: 'Reject',
  other: 'Other',
};

/**
 * The permission modal: the tool call, the exact operation (full command line, paths, diffs), and
 * the agent's options grouped by kind, each with a number and (per kind) a letter shortcut.
 *
 * Focus starts on no option. A prompt that pops up while the user types must not turn a stray
 * Enter into an answer: focusing "allow" would run a command by accident, focusing "reject"
 * would throw away the agent's work by accident. So Enter answers only after the user chose with
 * the arrows, shortcuts answer directly, and keys typed as the prompt opens are ignored.
 */
export const PermissionPrompt = memo(function PermissionPrompt({
  request,
  onSelect,
  isActive = true,
  waiting = 0,
  cwd,
  expanded = false,
  armDelayMs = 400,
  now = Date.now,
  maxOperationLines,
  onReviewHunks,
}: PermissionPromptProps) {
  const theme = useTheme();
  const bindings = useKeyBindings();
  const expandKey = useKeyLabel('app.toggleExpand');
  const cancelKey = useKeyLabel('app.cancel');
  const reviewKey = useKeyLabel('permission.reviewHunks');
  const operation = useMemo(
    () => request.operation ?? describePermissionOperation(request.toolCall),
    [request.operation, request.toolCall],
  );
  const { shown, focus, hint, armed } = usePermissionPrompt({
    options: request.options,
    onSelect,
    isActive,
    armDelayMs,
    now,
    ...(onReviewHunks ? { onReviewHunks } : {}),
  });
  const call = request.toolCall;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.status.warning} paddingX={1}>
      <Text bold color={theme.status.warning}>
        {`Permission requested${waiting > 0 ? ` · ${waiting} more waiting` : ''}`}
      </Text>
      <Text>
        <Text color={theme.text.accent}>{`${toolKindIcon(call.kind)} `}</Text>
        <Text bold>
          <InlineCode text={sanitizeInline(permissionHeading(call.title, operation)) || String(call.kind)} />
        </Text>
      </Text>
      <AvailableWidth indent={4}>
        <OperationView
          operation={operation}
          cwd={cwd}
          expanded={expanded}
          expandHint={` · ${expandKey} to expand`}
          {...(maxOperationLines !== undefined ? { maxLines: maxOperationLines } : {})}
        />
      </AvailableWidth>
      {(['allow', 'reject', 'other'] as const).map((group) => {
        const entries = shown.filter((entry) => entry.group === group);
        if (entries.length === 0) return null;
        return (
          <Box key={group} flexDirection="column" marginTop={1}>
            <Text
              color={
                group === 'allow' ? theme.status.success : group === 'reject' ? theme.status.error : undefined
              }
            >
              {GROUP_TITLES[group]}
            </Text>
            {entries.map((entry) => {
              const focused = focus !== null && shown[focus] === entry;
              const letter = entry.letterAction ? bindings[entry.letterAction][0] : undefined;
              return (
                <Text key={entry.number} color={focused ? theme.focus : undefined} bold={focused}>
                  {`${focused ? '❯' : ' '} ${entry.number}${letter ? ` ${formatKeySpec(letter)}` : '  '}  `}
                  <InlineCode text={sanitizeInline(entry.option.name)} />
                </Text>
              );
            })}
          </Box>
        );
      })}
      <Box marginTop={1} flexDirection="column">
        {hint && <Text color={theme.status.warning}>{hint}</Text>}
        {onReviewHunks && armed && (
          <Text color={theme.text.muted}>
            {`${reviewKey} review the changes hunk by hunk (allowing what you accept)`}
          </Text>
        )}
        <Text color={theme.text.muted}>
          {armed
            ? `↑↓ choose · Enter answer · 1-${Math.min(9, shown.length)} or letter answers directly · ${cancelKey} cancels the turn`
            : 'Read the request: keys answer in a moment'}
        </Text>
      </Box>
    </Box>
  );
});
