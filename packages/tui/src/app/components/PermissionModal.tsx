import { memo, useCallback, useMemo, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import type { PermissionScope, SessionState } from '@acp-kit/client';
import { useTheme } from '../../theme/ThemeContext.js';
import { useActionMatcher, useKeyLabel } from '../../keys/KeyBindingsContext.js';
import { PermissionHunkReview } from '../../permission/PermissionHunkReview.js';
import { InlineCode } from '../../components/InlineCode.js';
import { PermissionPrompt } from '../../permission/PermissionPrompt.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import type { PendingPermission } from '../state/app-state.js';
import {
  answerFor,
  permissionRequestView,
  permissionWarnings,
  rememberPreview,
  reviewedAnswer,
  SCOPES,
  scopeLabel,
} from '../view/permission-view.js';
import { useController } from '../hooks/AppContext.js';

/** Props of {@link PermissionModal}. */
export interface PermissionModalProps {
  readonly pending: PendingPermission;
  readonly state: SessionState | undefined;
  /** Other questions of this tab waiting behind this one. */
  readonly waiting: number;
  readonly expanded: boolean;
  /** Rows the modal may take (the operation is folded to fit). */
  readonly rows?: number;
  readonly isActive?: boolean;
  /** Typeahead guard of the prompt (tests set 0). */
  readonly armDelayMs?: number;
}

/**
 * The permission question of the active tab: the agent's options (shortcuts, no default focus, a
 * short arming delay), what the operation is, why it is asked, and "remember as a rule" with the
 * scope the user picks (`r` cycles it) and the exact rule that creates. When the question carries
 * file changes, `h` reviews them hunk by hunk right here: allowing then approves exactly the
 * accepted hunks, and the write that follows is not reviewed again. The answer goes to the
 * engine's permission flow, which saves the rule.
 */
export const PermissionModal = memo(function PermissionModal(props: PermissionModalProps) {
  // Each question starts afresh: "just this once", its options, not reviewing.
  return <Question key={props.pending.id} {...props} />;
});

function Question({
  pending,
  state,
  waiting,
  expanded,
  rows = 40,
  isActive = true,
  armDelayMs,
}: PermissionModalProps) {
  const theme = useTheme();
  const controller = useController();
  const is = useActionMatcher();
  const rememberKey = useKeyLabel('permission.remember');
  const menuKey = useKeyLabel('app.menu');
  const [scope, setScope] = useState<PermissionScope>('once');
  // Came back from the hunk review: the prompt needs no typeahead guard then.
  const [returned, setReturned] = useState(false);
  const { ask } = pending;
  const diffs = ask.diffs ?? [];
  // An identical rewrite (+0 -0, "No changes") has no hunk to accept or reject.
  const changes = diffs.some((diff) => diff.oldText !== diff.newText);
  const reviewing = pending.reviewing === true;
  const setReviewing = useCallback(
    (on: boolean) => {
      controller.store.dispatch({ type: 'permission_reviewing', id: pending.id, reviewing: on });
      if (!on) setReturned(true);
    },
    [controller, pending.id],
  );
  const openReview = useCallback(() => setReviewing(true), [setReviewing]);
  const request = useMemo(() => permissionRequestView(ask, state), [ask, state]);
  const warnings = permissionWarnings(ask);
  const rule = useMemo(() => rememberPreview(ask, scope, state?.cwd), [ask, scope, state?.cwd]);
  // Everything but the operation's diff or text: borders, title, cwd, env, paths, options by group, hints.
  const groups = new Set(request.options.map((option) => option.kind.split('_')[0])).size;
  const operation = request.operation;
  const fixed =
    12 +
    warnings.length +
    (operation?.cwd !== undefined ? 1 : 0) +
    (operation?.env?.length ?? 0) +
    (operation?.paths.length ?? 0) +
    request.options.length +
    2 * groups;
  const maxOperationLines = Math.max(3, rows - fixed);
  useInput(
    (input, key) => {
      if (!reviewing && is('permission.remember', input, key)) {
        setScope((current) => SCOPES[(SCOPES.indexOf(current) + 1) % SCOPES.length] ?? 'once');
      }
    },
    { isActive },
  );
  return (
    <Box flexDirection="column">
      {warnings.map((warning) => (
        <Text key={warning} color={theme.status.error}>{`⚠ ${warning}`}</Text>
      ))}
      <Text color={theme.text.muted} wrap="truncate-end">
        {'Asked because: '}
        <InlineCode text={sanitizeInline(ask.reason)} />
      </Text>
      {reviewing ? (
        <PermissionHunkReview
          key={pending.id}
          diffs={diffs}
          cwd={state?.cwd}
          maxHunks={Math.max(3, Math.floor(rows / 4))}
          maxHunkLines={Math.max(3, rows - 12 - Math.max(3, Math.floor(rows / 4)))}
          isActive={isActive}
          onBack={() => setReviewing(false)}
          onDone={(results) => {
            const answer = reviewedAnswer(ask, results, scope);
            if (answer) controller.answerPermission(pending.id, answer);
            else setReviewing(false);
          }}
        />
      ) : (
        <PermissionPrompt
          key={pending.id}
          request={request}
          waiting={waiting}
          cwd={state?.cwd}
          expanded={expanded}
          maxOperationLines={maxOperationLines}
          isActive={isActive}
          {...(returned ? { armDelayMs: 0 } : armDelayMs !== undefined ? { armDelayMs } : {})}
          {...(changes ? { onReviewHunks: openReview } : {})}
          onSelect={(optionId) => controller.answerPermission(pending.id, answerFor(ask, optionId, scope))}
        />
      )}
      <Text>
        <Text
          color={scope === 'once' ? theme.text.muted : theme.status.warning}
        >{`Remember: ${scopeLabel(scope)}`}</Text>
        <Text color={theme.text.muted}>{` · ${rememberKey} to change (rules: ${menuKey} → Rules)`}</Text>
      </Text>
      {rule !== undefined && (
        <Text color={theme.status.warning} wrap="truncate-end">
          {rule}
        </Text>
      )}
    </Box>
  );
}
