/** Reading transcript units in tests: the text each one shows, roughly. */
import { messageText } from '../components/message-segments.js';
import { noticeOf } from '../view-model/notice.js';
import type { TranscriptUnit } from '../view-model/transcript-unit.js';

/**
 * A unit's text: a part of an agent's message as its Markdown source, another message as its
 * text, a notice as its line; else the item's kind.
 */
export function unitText(unit: TranscriptUnit): string {
  const { item, part } = unit;
  if (part?.kind === 'markdown') return part.blocks.map((block) => block.raw).join('');
  if (part?.kind === 'content') return part.block.type;
  if (item.kind === 'message') return messageText(item.content);
  return noticeOf(item)?.text ?? item.kind;
}
