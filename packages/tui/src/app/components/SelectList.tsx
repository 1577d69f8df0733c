import { memo, useRef, useState, type ReactNode } from 'react';
import { Box, Text, useInput, type Key } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import { InlineCode } from '../../components/InlineCode.js';
import { listWindow } from './list-window.js';

/** One entry of a {@link SelectList}. */
export interface SelectItem {
  readonly key: string;
  readonly label: string;
  /** Shown after the label, muted. */
  readonly detail?: string;
  /** A single character that selects the item directly. */
  readonly hotkey?: string;
  /** A short coloured tag (`installed`, `current`…). */
  readonly tag?: { readonly text: string; readonly tone: 'ok' | 'warn' | 'bad' | 'info' };
  readonly disabled?: boolean;
}

/** Props of {@link SelectList}. */
export interface SelectListProps {
  readonly title: string;
  readonly items: readonly SelectItem[];
  readonly onSelect: (item: SelectItem) => void;
  readonly onCancel?: () => void;
  /** Other keys for the focused item (delete, toggle…); return true when handled. */
  readonly onKey?: (input: string, key: Key, item: SelectItem | undefined) => boolean;
  /** Key hints shown under the list. */
  readonly hint?: string;
  readonly isActive?: boolean;
  readonly initialIndex?: number;
  /** Rows shown at once; the list scrolls beyond. */
  readonly maxVisible?: number;
  /** Shown when there are no items. */
  readonly empty?: string;
  readonly children?: ReactNode;
}

/**
 * A keyboard list: ↑↓ or j/k move, Enter selects, a hotkey selects directly, Esc cancels.
 * Every label and detail is sanitized (they often come from agents).
 *
 * @example
 * <SelectList title="Mode" items={modes} onSelect={(item) => setMode(item.key)} onCancel={close} />
 */
export const SelectList = memo(function SelectList({
  title,
  items,
  onSelect,
  onCancel,
  onKey,
  hint,
  isActive = true,
  initialIndex = 0,
  maxVisible = 12,
  empty = 'Nothing to show.',
  children,
}: SelectListProps) {
  const theme = useTheme();
  const [focus, setFocus] = useState(() =>
    Math.min(Math.max(0, initialIndex), Math.max(0, items.length - 1)),
  );
  const index = Math.min(focus, Math.max(0, items.length - 1));
  // Keys can arrive before Ink registers the handler of the latest render: read from here.
  const latest = useRef({ index, items });
  latest.current = { index, items };
  useInput(
    (input, key) => {
      const { index, items } = latest.current;
      const current = items[index];
      if (onKey?.(input, key, current)) return;
      if (key.escape || (input === 'q' && !items.some((item) => item.hotkey === 'q'))) onCancel?.();
      else if (key.upArrow || input === 'k') setFocus(Math.max(0, index - 1));
      else if (key.downArrow || input === 'j') setFocus(Math.min(items.length - 1, index + 1));
      else if (key.pageUp) setFocus(Math.max(0, index - maxVisible));
      else if (key.pageDown) setFocus(Math.min(items.length - 1, index + maxVisible));
      else if (key.return) {
        if (current && !current.disabled) onSelect(current);
      } else if (input.length === 1 && !key.ctrl && !key.meta) {
        const hit = items.find((item) => item.hotkey === input && !item.disabled);
        if (hit) onSelect(hit);
      }
    },
    { isActive },
  );
  const { start, end } = listWindow(index, items.length, maxVisible);
  const visible = items.slice(start, end);
  const toneColor = {
    ok: theme.status.success,
    warn: theme.status.warning,
    bad: theme.status.error,
    info: theme.status.info,
  };
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.focus} paddingX={1}>
      <Text bold color={theme.text.accent}>
        {title}
      </Text>
      {children}
      {items.length === 0 && <Text color={theme.text.muted}>{empty}</Text>}
      {start > 0 && <Text color={theme.text.muted}>{`  ↑ ${start} more`}</Text>}
      {visible.map((item, i) => {
        const focused = start + i === index;
        return (
          <Text key={item.key} wrap="truncate-end" color={item.disabled ? theme.text.muted : undefined}>
            <Text color={focused ? theme.focus : undefined} bold={focused}>
              {`${focused ? '❯' : ' '} ${item.hotkey ? `${item.hotkey} ` : '  '}${sanitizeInline(item.label)}`}
            </Text>
            {item.tag && (
              <Text color={toneColor[item.tag.tone]}>{` [${sanitizeInline(item.tag.text)}]`}</Text>
            )}
            {item.detail && (
              <Text color={theme.text.muted}>
                {'  '}
                <InlineCode text={sanitizeInline(item.detail)} />
              </Text>
            )}
          </Text>
        );
      })}
      {start + maxVisible < items.length && (
        <Text color={theme.text.muted}>{`  ↓ ${items.length - start - maxVisible} more`}</Text>
      )}
      <Text color={theme.text.muted}>{hint ?? '↑↓ move · Enter choose · Esc back'}</Text>
    </Box>
  );
});
