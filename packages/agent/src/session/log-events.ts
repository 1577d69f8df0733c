/**
 * The events of a session log, whatever format wrote them: format 2 records are the events
 * themselves; format 1 records (v1 updates as sent) are read through the v1 face's translation.
 */
import type { SessionUpdate } from '@acp-kit/protocol';
import type { AgentEvent } from '../core/events.js';
import { fromV1Update, V1MessageIds } from '../faces/v1/from-v1.js';
import type { SessionRecord } from './store.js';

/**
 * @example
 * for (const event of eventsOf(store.readRecords(id))) if (event.type === 'tool_call') count++;
 */
export function eventsOf(records: readonly SessionRecord[]): AgentEvent[] {
  const events: AgentEvent[] = [];
  const ids = new V1MessageIds();
  for (const record of records) {
    if (record.type === 'event') {
      events.push(record.event);
    } else if (record.type === 'update') {
      let event: AgentEvent | undefined;
      try {
        event = fromV1Update(record.update as SessionUpdate, ids);
      } catch {
        // A hand-edited or damaged line: the rest of the log is still read.
        event = undefined;
      }
      if (event) events.push(event);
    }
  }
  return events;
}
