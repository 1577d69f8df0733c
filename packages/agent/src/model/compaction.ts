/** `/compact` for the model agent: the model summarises the conversation, which then replaces it. */
import { randomUUID } from 'node:crypto';
import { streamText } from 'ai';
import type { ProtocolError } from '@acp-kit/protocol';
import type { StopReason } from '../core/events.js';
import type { Turn } from '../session/turn.js';
import { isAbortError } from '../util/abort.js';
import { conversation } from './history.js';
import type { ActiveModel } from './model-engine.js';

const INSTRUCTIONS =
  'Summarise our conversation so far so that you can continue the work from the summary alone: the ' +
  "user's goals, decisions made, files read or changed (with paths), commands run and their results, " +
  'the current state and what remains to do. Be factual and concise. Reply with the summary only.';

/**
 * Streams the summary as compaction updates (clients with `session.compaction`) or as an agent
 * message, and records it so the next turn starts from it.
 */
export async function compactConversation(
  turn: Turn,
  active: ActiveModel,
  focus: string,
  toError: (error: unknown) => ProtocolError,
): Promise<StopReason> {
  const { session } = turn;
  const messages = conversation(session.records());
  if (messages.length === 0) {
    await turn.say('There is nothing to compact yet.');
    return 'end_turn';
  }
  const compactionId = `compaction-${randomUUID()}`;
  const asUpdates = session.accepts({ type: 'compaction', compactionId, status: 'in_progress' });
  if (asUpdates) await session.emit({ type: 'compaction', compactionId, status: 'in_progress' });
  else await turn.message.write('Compacting the conversation. Summary:\n\n');
  let summary = '';
  try {
    const result = streamText({
      model: active.model,
      messages: [
        ...messages,
        { role: 'user', content: focus ? `${INSTRUCTIONS}\nFocus on: ${focus}` : INSTRUCTIONS },
      ],
      maxRetries: 2,
      abortSignal: turn.signal,
      // Errors arrive as stream parts and are handled there; the default handler would print them.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      if (part.type === 'error') throw part.error;
      if (part.type !== 'text-delta') continue;
      summary += part.text;
      if (asUpdates) {
        await session.emit({
          type: 'compaction_chunk',
          compactionId,
          content: { type: 'text', text: part.text },
        });
      } else {
        await turn.message.write(part.text);
      }
    }
  } catch (error) {
    if (turn.signal.aborted || isAbortError(error)) {
      if (asUpdates) await session.emit({ type: 'compaction', compactionId, status: 'cancelled' });
      return 'cancelled';
    }
    if (asUpdates) {
      await session.emit({
        type: 'compaction',
        compactionId,
        status: 'failed',
        error: toError(error).message,
      });
    }
    throw toError(error);
  }
  if (turn.signal.aborted) return 'cancelled';
  if (asUpdates) await session.emit({ type: 'compaction', compactionId, status: 'completed' });
  session.record({ type: 'compaction', at: new Date().toISOString(), summary: summary.trim() });
  await session.emit({
    type: 'usage',
    used: Math.round(summary.length / 4),
    size: active.settings.contextWindow,
    cost: session.meta.cost ?? null,
  });
  return 'end_turn';
}
