import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { HunkReview } from '../../review/HunkReview.js';
import { displayPath } from '../../text/paths.js';
import { plural } from '../../text/fold.js';
import type { PendingReview } from '../state/app-state.js';
import { useController } from '../hooks/AppContext.js';

/** Props of {@link ReviewModal}. */
export interface ReviewModalProps {
  readonly review: PendingReview;
  /** Other writes of this tab waiting for review. */
  readonly waiting: number;
  readonly cwd?: string;
  /** Lines of the focused hunk shown before folding. */
  readonly maxHunkLines: number;
  /** Hunk summary lines shown around the focused one. */
  readonly maxHunks?: number;
  readonly isActive?: boolean;
}

/**
 * Review of a file the agent wants to write, hunk by hunk. Enter writes exactly the accepted
 * hunks; Esc rejects the whole write. The agent is told what was kept.
 */
export const ReviewModal = memo(function ReviewModal({
  review,
  waiting,
  cwd,
  maxHunkLines,
  maxHunks,
  isActive = true,
}: ReviewModalProps) {
  const theme = useTheme();
  const controller = useController();
  return (
    <Box flexDirection="column">
      <Text color={theme.status.warning}>
        {`The agent wants to write ${displayPath(review.path, cwd)}${waiting > 0 ? ` · ${plural(waiting, 'more write')} waiting` : ''}`}
      </Text>
      <HunkReview
        key={review.id}
        path={review.path}
        oldText={review.oldText}
        newText={review.newText}
        cwd={cwd}
        maxHunkLines={maxHunkLines}
        {...(maxHunks !== undefined ? { maxHunks } : {})}
        isActive={isActive}
        onSubmit={(result) => controller.answerReview(review.id, { kind: 'reviewed', result })}
        onCancel={() =>
          controller.answerReview(review.id, { kind: 'rejected', reason: 'rejected by the user' })
        }
      />
    </Box>
  );
});
