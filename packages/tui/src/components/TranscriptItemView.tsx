import { memo } from 'react';
import type { TerminalSnapshot } from '../view-model/tool-call.js';
import type { TranscriptItem } from '../view-model/transcript.js';
import { MessageView } from './MessageView.js';
import { NoticeView } from './NoticeView.js';
import { PlanPanel } from './PlanPanel.js';
import { ToolCallCard } from './ToolCallCard.js';

/** Props of {@link TranscriptItemView}. */
export interface TranscriptItemViewProps {
  readonly item: TranscriptItem;
  readonly terminals?: ReadonlyMap<string, TerminalSnapshot>;
  readonly cwd?: string;
  /** Show thoughts in full. */
  readonly showThoughts?: boolean;
  /** Show long tool output in full. */
  readonly expanded?: boolean;
}

/** Renders one transcript item with the component for its type. */
export const TranscriptItemView = memo(function TranscriptItemView({
  item,
  terminals,
  cwd,
  showThoughts = false,
  expanded = false,
}: TranscriptItemViewProps) {
  switch (item.type) {
    case 'message':
      return <MessageView message={item.message} collapsed={!showThoughts} />;
    case 'tool_call':
      return <ToolCallCard call={item.call} terminals={terminals} cwd={cwd} expanded={expanded} />;
    case 'plan':
      return <PlanPanel entries={item.entries} />;
    case 'notice':
      return <NoticeView notice={item.notice} />;
  }
});
