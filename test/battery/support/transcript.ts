/**
 * Reading what the client engine kept: the agent's text in a session's store, the numbered updates
 * of the relay agent's floods (`#1|`, `#2|`…) and the session's `events.jsonl` on disk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionState } from '@acp-kit/client';

/** All text of the agent's messages, in order. */
export function agentText(state: SessionState): string {
  let text = '';
  for (const item of state.items) {
    if (item.kind !== 'message' || item.role !== 'agent') continue;
    for (const block of item.content) if (block.type === 'text') text += (block as { text: string }).text;
  }
  return text;
}

/** The flood sequence numbers found in `text`, in order. */
export function sequenceOf(text: string): number[] {
  return [...text.matchAll(/#(\d+)\|/g)].map((m) => Number(m[1]));
}

/** How far `numbers` is from exactly 1, 2, …, n: missing, duplicated or reordered entries. */
export function sequenceDefects(numbers: readonly number[]): number {
  let defects = 0;
  numbers.forEach((n, i) => {
    if (n !== i + 1) defects++;
  });
  return defects;
}

/** The lines of a recorded session's `events.jsonl`, parsed (a line that does not parse throws). */
export function recordedEvents(dataDir: string, localId: string): unknown[] {
  const text = readFileSync(join(dataDir, 'client/sessions', localId, 'events.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}
