/**
 * The agent picker of `acp` (no agent given) as the UI's first frame draws it (App: the picker in
 * the lower panel, then the key hints), drawn without React so that it is on screen while the UI
 * loads. The list comes from the same functions as the picker's (agent-items.ts, list-window.ts);
 * the layout mirrors SelectList's, and a test compares the two frames through a terminal emulator.
 */
import type { DetectedAgent } from '@acp-kit/client/launch';
import {
  agentItem,
  agentPickerHint,
  agentPickerTitle,
  initialAgentIndex,
} from '../app/components/agent-items.js';
import { keyHints, type HintKeys } from '../app/components/key-hints.js';
import { bottomPanelRows, overlayListRows } from '../app/components/layout.js';
import { listWindow } from '../app/components/list-window.js';
import type { SelectItem } from '../app/components/SelectList.js';
import { codeSpans } from '../components/code-spans.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import type { Theme } from '../theme/theme.js';
import { boxInnerWidth, paintBox, paintLine, truncateLine, type Line } from './paint.js';

/** What the picker shows. */
export interface PickerChromeInput {
  readonly columns: number;
  readonly rows: number;
  readonly theme: Theme;
  readonly keys: HintKeys;
  /** The catalog's agents with their installed state, in display order (`orderAgents`). */
  readonly agents: readonly DetectedAgent[];
  /** The catalog's default agent (`defaultAgent` in agents.json). */
  readonly defaultAgent: string | undefined;
  /** What was wrong with agents.json. */
  readonly problems: readonly string[];
}

/** One entry of the list, as SelectList draws it. */
function itemLine(item: SelectItem, focused: boolean, theme: Theme): Line {
  const tones = {
    ok: theme.status.success,
    warn: theme.status.warning,
    bad: theme.status.error,
    info: theme.status.info,
  };
  const line: Line = [
    {
      text: `${focused ? '❯' : ' '} ${item.hotkey ? `${item.hotkey} ` : '  '}${sanitizeInline(item.label)}`,
      color: focused ? theme.focus : item.disabled ? theme.text.muted : undefined,
      bold: focused,
    },
  ];
  const tag = item.tag ? [{ text: ` [${sanitizeInline(item.tag.text)}]`, color: tones[item.tag.tone] }] : [];
  // The detail's code spans drawn as code, as SelectList's InlineCode does.
  const detail = item.detail
    ? [
        { text: '  ', color: theme.text.muted },
        ...codeSpans(sanitizeInline(item.detail)).map((piece) => ({
          text: piece.text,
          color: piece.code ? theme.text.accent : theme.text.muted,
        })),
      ]
    : [];
  return [...line, ...tag, ...detail];
}

/** The frame's lines, or undefined when the UI must draw it (too narrow, characters not drawn here). */
export function pickerChrome(input: PickerChromeInput): string[] | undefined {
  const { columns, theme, agents } = input;
  const inner = boxInnerWidth(columns);
  const items = agents.map(agentItem);
  const index = Math.min(initialAgentIndex(agents, input.defaultAgent), Math.max(0, items.length - 1));
  const maxVisible = overlayListRows(bottomPanelRows(input.rows));
  const { start, end } = listWindow(index, items.length, maxVisible);
  const lines: (Line | undefined)[] = [
    [{ text: agentPickerTitle('start'), color: theme.text.accent, bold: true }],
    ...input.problems.map((problem): Line => [{ text: `⚠ ${problem}`, color: theme.status.warning }]),
    ...(items.length === 0 ? [[{ text: 'Nothing to show.', color: theme.text.muted }]] : []),
    ...(start > 0 ? [[{ text: `  ↑ ${start} more`, color: theme.text.muted }]] : []),
    ...items
      .slice(start, end)
      .map((item, i) => truncateLine(itemLine(item, start + i === index, theme), inner)),
    ...(end < items.length ? [[{ text: `  ↓ ${items.length - end} more`, color: theme.text.muted }]] : []),
    [{ text: agentPickerHint('start'), color: theme.text.muted }],
  ];
  if (lines.some((line) => line === undefined)) return undefined;
  const box = paintBox(lines as Line[], columns, theme.focus);
  const hints = paintLine([{ text: keyHints(input.keys, false, false), color: theme.text.muted }], columns);
  return box && hints !== undefined ? [...box, hints] : undefined;
}
