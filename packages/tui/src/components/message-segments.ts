/** Grouping a message's content blocks for display. */
import type { ContentBlock, StopReason } from '@acp-kit/protocol';
import { isUnknownVariant } from '@acp-kit/protocol';

/** Consecutive plain text blocks joined into one text, or another block on its own. */
export type MessageSegment =
  { readonly kind: 'text'; readonly text: string } | { readonly kind: 'block'; readonly block: ContentBlock };

/**
 * Joins runs of text chunks (streamed pieces of one message) into one text, so Markdown spans
 * chunk boundaries. Text with annotations stays its own block so its badges can be shown.
 */
export function messageSegments(blocks: readonly ContentBlock[]): MessageSegment[] {
  const segments: MessageSegment[] = [];
  for (const block of blocks) {
    if (!isUnknownVariant(block) && block.type === 'text' && !block.annotations) {
      const last = segments[segments.length - 1];
      if (last?.kind === 'text')
        segments[segments.length - 1] = { kind: 'text', text: last.text + block.text };
      else segments.push({ kind: 'text', text: block.text });
    } else {
      segments.push({ kind: 'block', block });
    }
  }
  return segments;
}

/** The plain text of a message's text blocks. */
export function messageText(blocks: readonly ContentBlock[]): string {
  return messageSegments(blocks)
    .map((s) =>
      s.kind === 'text' ? s.text : !isUnknownVariant(s.block) && s.block.type === 'text' ? s.block.text : '',
    )
    .join('');
}

/** What to say about how a turn ended; undefined for a normal end. */
export function stopReasonNotice(
  reason: StopReason | undefined,
): { text: string; severity: 'warning' | 'error' } | undefined {
  switch (reason) {
    case undefined:
    case 'end_turn':
      return undefined;
    case 'refusal':
      return { text: '⊘ The agent refused to continue this request.', severity: 'error' };
    case 'cancelled':
      return { text: '⊘ Turn cancelled.', severity: 'warning' };
    case 'max_tokens':
      return { text: '⚠ Stopped: the response reached the token limit.', severity: 'warning' };
    case 'max_turn_requests':
      return { text: '⚠ Stopped: the turn reached its limit of model requests.', severity: 'warning' };
    default:
      return { text: `⚠ Stopped (${String(reason)}).`, severity: 'warning' };
  }
}
