import { memo, useMemo } from 'react';
import { MarkdownBlocks } from '../markdown/MarkdownView.js';
import { noticeOf } from '../view-model/notice.js';
import { toolCallView } from '../view-model/tool-call.js';
import type { TranscriptUnit } from '../view-model/transcript-unit.js';
import { ContentBlockView } from './ContentBlockView.js';
import { MessageView } from './MessageView.js';
import { NoticeView } from './NoticeView.js';
import { PlanPanel } from './PlanPanel.js';
import { ToolCallCard } from './ToolCallCard.js';

/** Props of {@link TranscriptItemView}. */
export interface TranscriptItemViewProps {
  readonly unit: TranscriptUnit;
  readonly cwd?: string;
  /** Show thoughts in full. */
  readonly showThoughts?: boolean;
  /** Show long tool output in full. */
  readonly expanded?: boolean;
  /** A tool card: the most lines of content it shows (the live region's share). */
  readonly maxContentLines?: number;
}

/** Renders one transcript unit (an engine item, or a part of an agent's message) with the component for its kind. */
export const TranscriptItemView = memo(function TranscriptItemView({
  unit,
  cwd,
  showThoughts = false,
  expanded = false,
  maxContentLines,
}: TranscriptItemViewProps) {
  const { item, part, streaming, terminals } = unit;
  const call = useMemo(() => (item.kind === 'tool_call' ? toolCallView(item) : undefined), [item]);
  switch (item.kind) {
    case 'message':
      if (part?.kind === 'markdown') return <MarkdownBlocks blocks={part.blocks} />;
      if (part?.kind === 'content') return <ContentBlockView block={part.block} />;
      return <MessageView message={item} streaming={streaming === true} collapsed={!showThoughts} />;
    case 'tool_call':
      return call ? (
        <ToolCallCard
          call={call}
          terminals={terminals}
          cwd={cwd}
          expanded={expanded}
          {...(maxContentLines !== undefined ? { maxContentLines } : {})}
        />
      ) : null;
    case 'plan':
      return <PlanPanel entries={item.entries} />;
    default: {
      const notice = noticeOf(item);
      return notice ? <NoticeView notice={notice} /> : null;
    }
  }
});
