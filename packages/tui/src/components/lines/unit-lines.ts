/**
 * A transcript unit as styled lines, for the kinds drawn without Ink (what `TranscriptItemView`
 * draws for them): prompts and agents' messages, content parts, tool cards, plans and notices.
 * Undefined for what only the components draw (thoughts, diffs, terminals, spinners…).
 */
import { markdownLines } from '../../markdown/markdown-lines.js';
import { noticeOf } from '../../view-model/notice.js';
import { toolCallView } from '../../view-model/tool-call.js';
import type { TranscriptUnit } from '../../view-model/transcript-unit.js';
import { toolCardLines } from './card-lines.js';
import { contentBlockLines, messageLines } from './message-lines.js';
import { noticeLines, planLines } from './item-lines.js';
import type { LineLayout } from './styled-text.js';

/**
 * The lines of a unit (Markdown parts are laid out by `markdownLines` beforehand), or undefined
 * for a unit its component must draw.
 *
 * @example
 * unitLines(unit, { width: 100, theme, bindings, cwd }) ?? drawWithInk(unit);
 */
export function unitLines(unit: TranscriptUnit, layout: LineLayout): string[] | undefined {
  const { item, part } = unit;
  switch (item.kind) {
    case 'message': {
      if (part?.kind === 'markdown') return markdownLines(part.blocks, layout);
      if (part?.kind === 'content') return contentBlockLines(part.block, layout);
      if (item.role === 'thought') return undefined;
      return messageLines(item.role === 'user', item.content, layout);
    }
    case 'tool_call':
      return toolCardLines(toolCallView(item), layout);
    case 'plan':
      return planLines(item.entries, layout);
    default: {
      const notice = noticeOf(item);
      return notice ? noticeLines(notice, layout) : [];
    }
  }
}
