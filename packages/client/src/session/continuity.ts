/**
 * Continuity: when an agent cannot load or resume a session (or it is another agent), a new
 * session is seeded with our own transcript, sent as context before the next prompt.
 */
import type { ContentBlock } from '@acp-kit/protocol';
import type { SessionState, TranscriptItem } from './state.js';

/** Default size of the seeded transcript, in characters (the newest part is kept). */
export const DEFAULT_CONTINUITY_CHARS = 60_000;

/** The transcript as plain text, oldest first. */
export function transcriptText(items: readonly TranscriptItem[]): string {
  const lines: string[] = [];
  for (const item of items) {
    switch (item.kind) {
      case 'message': {
        const text = blocksText(item.content);
        if (text === '') break;
        const who =
          item.role === 'user' ? 'User' : item.role === 'agent' ? 'Assistant' : 'Assistant (thinking)';
        if (item.role !== 'thought') lines.push(`${who}: ${text}`);
        break;
      }
      case 'tool_call': {
        const status = item.clientStatus ?? item.status;
        const where = item.locations.map((l) => l.path).join(', ');
        lines.push(`[tool ${item.toolKind}: ${item.title}${where ? ` (${where})` : ''} — ${status}]`);
        break;
      }
      case 'permission':
        lines.push(`[permission for ${item.request.title ?? item.request.kind}: ${item.decision}]`);
        break;
      case 'error':
        lines.push(`[error: ${item.error.message.split('\n')[0]}]`);
        break;
      case 'stop':
        if (item.stopReason !== 'end_turn') lines.push(`[turn ended: ${item.stopReason}]`);
        break;
      default:
        break;
    }
  }
  return lines.join('\n\n');
}

function blocksText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      const b = block as { type?: unknown; text?: unknown; uri?: unknown; resource?: { uri?: unknown } };
      if (b.type === 'text' && typeof b.text === 'string') return b.text;
      if (b.type === 'resource_link' && typeof b.uri === 'string') return `[file ${b.uri}]`;
      if (b.type === 'resource' && typeof b.resource?.uri === 'string') return `[file ${b.resource.uri}]`;
      if (b.type === 'image') return '[image]';
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * The context block sent before the first prompt of a continued session.
 *
 * @example
 * const seed = continuityBlock(previous, { fromAgent: 'claude' });
 * await session.prompt([seed, 'Now add tests']);
 */
export function continuityBlock(
  state: SessionState,
  options: { fromAgent?: string; maxChars?: number } = {},
): ContentBlock {
  const max = options.maxChars ?? DEFAULT_CONTINUITY_CHARS;
  let text = transcriptText(state.items);
  let cut = '';
  if (text.length > max) {
    text = text.slice(text.length - max);
    cut = ' (older parts omitted)';
  }
  const from = options.fromAgent ? ` with ${options.fromAgent}` : '';
  return {
    type: 'text',
    text:
      `<previous-conversation>\nThis continues an earlier conversation${from} that could not be reopened directly. ` +
      `Its transcript${cut} follows; treat it as context, and answer the request after it.\n\n${text}\n</previous-conversation>`,
  };
}
