import { memo, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import type { ProposedDiff } from '@acp-kit/client';
import { useTheme } from '../theme/ThemeContext.js';
import { HunkReview } from '../review/HunkReview.js';
import type { HunkReviewResult } from '../review/useHunkReview.js';

/** Props of {@link PermissionHunkReview}. */
export interface PermissionHunkReviewProps {
  /** The changes the permission question is about. */
  readonly diffs: readonly ProposedDiff[];
  /** Called once every diff was reviewed, with the result of each, in order. */
  readonly onDone: (results: readonly HunkReviewResult[]) => void;
  /** Back to the question's options (nothing is answered). */
  readonly onBack: () => void;
  readonly cwd?: string;
  readonly maxHunkLines?: number;
  readonly maxHunks?: number;
  readonly isActive?: boolean;
}

/**
 * The hunk-by-hunk review of a permission question's changes, inside the question: one diff after
 * the other, `Enter` on the last one allows exactly the accepted hunks (so the write that follows
 * is not reviewed again), `Esc` goes back to the options.
 */
export const PermissionHunkReview = memo(function PermissionHunkReview({
  diffs,
  onDone,
  onBack,
  cwd,
  maxHunkLines,
  maxHunks,
  isActive = true,
}: PermissionHunkReviewProps) {
  const theme = useTheme();
  const [index, setIndex] = useState(0);
  const results = useRef<HunkReviewResult[]>([]);
  const diff = diffs[index];
  if (!diff) return null;
  const last = index + 1 >= diffs.length;
  return (
    <Box flexDirection="column">
      <Text color={theme.status.warning}>
        {`Permission requested: the hunks you accept are allowed${diffs.length > 1 ? ` · change ${index + 1} of ${diffs.length}` : ''}`}
      </Text>
      <HunkReview
        key={index}
        path={diff.path}
        oldText={diff.oldText}
        newText={diff.newText}
        placement={diff.placement}
        cwd={cwd}
        isActive={isActive}
        {...(maxHunkLines !== undefined ? { maxHunkLines } : {})}
        {...(maxHunks !== undefined ? { maxHunks } : {})}
        submitLabel={last ? 'allow accepted' : 'next change'}
        cancelLabel="back"
        onCancel={onBack}
        onSubmit={(result) => {
          results.current[index] = result;
          if (last) onDone(results.current);
          else setIndex(index + 1);
        }}
      />
    </Box>
  );
});
