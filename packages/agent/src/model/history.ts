/**
 * The model's view of a session: the conversation rebuilt from the event log (restarting at the
 * last `/compact` summary), and the user message built from an ACP prompt.
 */
import type { ModelMessage, ToolModelMessage, UserModelMessage } from 'ai';
import type { ContentBlock } from '../core/events.js';
import type { ModelSettings } from '../config/settings.js';
import type { SessionRecord } from '../session/store.js';
import type { Turn } from '../session/turn.js';

type UserPart = Exclude<UserModelMessage['content'], string>[number];

const INTERRUPTED = 'Interrupted: the agent stopped before this tool call finished.';

/** The conversation so far, ready to send: every tool call answered, even after a crash. */
export function conversation(records: readonly SessionRecord[]): ModelMessage[] {
  let messages: ModelMessage[] = [];
  for (const record of records) {
    if (record.type === 'compaction') {
      messages = [
        {
          role: 'user',
          content: `Summary of our conversation so far (older messages were compacted):\n\n${record.summary}`,
        },
        { role: 'assistant', content: 'Understood. I will continue from this summary.' },
      ];
    } else if (record.type === 'model') {
      messages.push(record.message as ModelMessage);
    }
  }
  return answerDanglingToolCalls(messages);
}

/** Adds "interrupted" results for tool calls that never got one (the agent was killed mid-tool). */
function answerDanglingToolCalls(messages: ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const [index, message] of messages.entries()) {
    out.push(message);
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    const calls = message.content.filter((part) => part.type === 'tool-call');
    if (calls.length === 0) continue;
    const next = messages[index + 1];
    const answered = new Set(
      next?.role === 'tool'
        ? next.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : []))
        : [],
    );
    const missing = calls.filter((call) => !answered.has(call.toolCallId));
    if (missing.length === 0) continue;
    const results: ToolModelMessage['content'] = missing.map((call) => ({
      type: 'tool-result',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: 'error-text', value: INTERRUPTED },
    }));
    if (next?.role === 'tool') next.content.push(...results);
    else out.push({ role: 'tool', content: results });
  }
  return out;
}

function context(uri: string, text: string): string {
  return `<context uri="${uri}">\n${text}\n</context>`;
}

/**
 * The user message for the prompt: text as is, embedded resources inlined as context, file links
 * read through `read_file` (a reported tool call), images when the model accepts them.
 */
export async function userMessage(turn: Turn, model: ModelSettings): Promise<UserModelMessage> {
  const parts: UserPart[] = [];
  for (const block of turn.prompt) parts.push(...(await convertBlock(block, turn, model)));
  if (parts.length === 0) parts.push({ type: 'text', text: '(empty prompt)' });
  return { role: 'user', content: parts };
}

async function convertBlock(block: ContentBlock, turn: Turn, model: ModelSettings): Promise<UserPart[]> {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: (block as { text: string }).text }];
    case 'image': {
      const image = block as { data: string; mimeType: string };
      if (model.images) return [{ type: 'image', image: image.data, mediaType: image.mimeType }];
      return [
        {
          type: 'text',
          text: `[The user attached an image (${image.mimeType}); ${model.name} does not accept images.]`,
        },
      ];
    }
    case 'resource': {
      const resource = (block as { resource: { uri: string; text?: string; mimeType?: string | null } })
        .resource;
      if (typeof resource.text === 'string')
        return [{ type: 'text', text: context(resource.uri, resource.text) }];
      return [
        {
          type: 'text',
          text: `[Attached binary resource ${resource.uri} (${resource.mimeType ?? 'unknown type'}) not shown.]`,
        },
      ];
    }
    case 'resource_link': {
      const link = block as { uri: string; name: string };
      if (!link.uri.startsWith('file:'))
        return [{ type: 'text', text: `[Link: ${link.name} <${link.uri}>]` }];
      const read = await turn.tools.run('read_file', { path: link.uri }, turn.signal);
      const text = read.status === 'completed' ? read.output : `(could not read: ${read.output})`;
      return [{ type: 'text', text: context(link.uri, text) }];
    }
    default:
      return [{ type: 'text', text: `[Attached ${block.type} content not supported.]` }];
  }
}
