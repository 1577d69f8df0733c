import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { useKeyBindings } from '../keys/KeyBindingsContext.js';
import { formatKeySpec } from '../keys/key-spec.js';
import type { KeyAction } from '../keys/key-bindings.js';
import { hunkHeader } from '../diff/display.js';
import { DiffLines } from '../components/DiffLines.js';
import { displayPath } from '../text/paths.js';
import { useHunkReview, type HunkReviewResult } from './useHunkReview.js';
import type { DiffPlacementView } from '../view-model/tool-call.js';

/** Props of {@link HunkReview}. */
export interface HunkReviewProps {
  /** The file the agent wants to write. */
  readonly path: string;
  /** Its current content; null when it does not exist yet. */
  readonly oldText: string | null;
  /** The content the agent proposes. */
  readonly newText: string;
  /** Called once, when every hunk has a decision and the user confirms. */
  readonly onSubmit: (result: HunkReviewResult) => void;
  /** Called when the user rejects the whole write (Esc). */
  readonly onCancel?: () => void;
  readonly isActive?: boolean;
  readonly cwd?: string;
  /** Lines of the focused hunk shown before folding; undefined shows all. Default 30. */
  readonly maxHunkLines?: number;
  /** Hunk summary lines shown around the focused hunk (the list scrolls); undefined shows all. */
  readonly maxHunks?: number;
  /** What Enter does, in the key hint (default: write). */
  readonly submitLabel?: string;
  /** What Esc does, in the key hint (default: reject the write). */
  readonly cancelLabel?: string;
  /** Where `oldText` is in the file, when it is a part of it (an agent's edit): lines numbered from there. */
  readonly placement?: DiffPlacementView | null;
}

const MARK = { accept: '✓', reject: '✗' } as const;

/**
 * Per-hunk review of a proposed file write: accept or reject each hunk, or all of them, then
 * write exactly the accepted result. The focused hunk is shown in full (folded when very long),
 * the others as one-line summaries with their decision. Give each proposed write its own `key`:
 * the decisions belong to one pair of texts.
 *
 * @example
 * <HunkReview key={request.id} path={path} oldText={current} newText={proposed} onSubmit={write} onCancel={refuse} />
 */
export const HunkReview = memo(function HunkReview({
  path,
  oldText,
  newText,
  onSubmit,
  onCancel,
  isActive = true,
  cwd,
  maxHunkLines = 30,
  maxHunks,
  submitLabel = 'write',
  cancelLabel = 'reject the write',
  placement,
}: HunkReviewProps) {
  const theme = useTheme();
  const bindings = useKeyBindings();
  const { hunks, state } = useHunkReview({ path, oldText, newText, onSubmit, onCancel, isActive, placement });
  const key = (action: KeyAction): string => formatKeySpec(bindings[action][0] ?? '?');
  const accepted = state.decisions.filter((d) => d === 'accept').length;
  const rejected = state.decisions.filter((d) => d === 'reject').length;
  const open = hunks.length - accepted - rejected;
  const shownCount = maxHunks === undefined ? hunks.length : Math.max(1, maxHunks);
  const first = Math.min(
    Math.max(0, state.focus - Math.floor(shownCount / 2)),
    Math.max(0, hunks.length - shownCount),
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.focus} paddingX={1}>
      <Text>
        <Text bold>{`Review write to ${displayPath(path, cwd)}`}</Text>
        {oldText === null && <Text color={theme.status.info}> (new file)</Text>}
        <Text color={theme.text.muted}>
          {` · ${hunks.length} ${hunks.length === 1 ? 'hunk' : 'hunks'} · ${accepted} accepted · ${rejected} rejected · ${open} undecided`}
        </Text>
      </Text>
      {hunks.length === 0 && (
        <Text color={theme.text.muted}>The proposed content is the same as the file.</Text>
      )}
      {first > 0 && (
        <Text color={theme.text.muted}>{`  ↑ ${first} more ${first === 1 ? 'hunk' : 'hunks'}`}</Text>
      )}
      {hunks.slice(first, first + shownCount).map((hunk, offset) => {
        const i = first + offset;
        const decision = state.decisions[i];
        const focused = i === state.focus;
        const color =
          decision === 'accept'
            ? theme.status.success
            : decision === 'reject'
              ? theme.status.error
              : undefined;
        return (
          <Box key={i} flexDirection="column">
            <Text color={focused ? theme.focus : undefined} bold={focused}>
              {focused ? '❯ ' : '  '}
              <Text color={color}>{decision ? MARK[decision] : '?'}</Text>
              {` hunk ${i + 1} `}
              <Text color={theme.diff.hunkHeader}>{hunkHeader(hunk)}</Text>
              <Text color={theme.diff.added}>{` +${hunk.addedCount}`}</Text>
              <Text color={theme.diff.removed}>{` -${hunk.removedCount}`}</Text>
            </Text>
            {focused && (
              <Box paddingLeft={4}>
                <DiffLines hunks={[hunk]} headers={false} maxLines={maxHunkLines} />
              </Box>
            )}
          </Box>
        );
      })}
      {first + shownCount < hunks.length && (
        <Text color={theme.text.muted}>{`  ↓ ${hunks.length - first - shownCount} more`}</Text>
      )}
      {state.notice && <Text color={theme.status.warning}>{state.notice}</Text>}
      <Text color={theme.text.muted}>
        {`${key('review.accept')} accept · ${key('review.reject')} reject · ${key('review.acceptAll')} accept all · ` +
          `${key('review.rejectAll')} reject all · ${key('review.previous')}${key('review.next')} move · ` +
          `${key('review.submit')} ${submitLabel}${onCancel ? ` · ${key('review.cancel')} ${cancelLabel}` : ''}`}
      </Text>
    </Box>
  );
});
