/**
 * A stored session in a test run's data directory, as the client records it: for the tests of
 * `acp --resume ID`.
 */
import { join } from 'node:path';
import { TranscriptStore } from '@acp-kit/client';
import type { HarnessDirs } from './tmux-harness.js';

/**
 * Records session `localId`, made with the catalog's agent `agentId` in the run's workspace, with
 * one turn asking `prompt` when given.
 *
 * @example
 * await storeSession(dirs, { localId: 's-resumed', agentId: 'scenario', prompt: 'asked before' });
 */
export async function storeSession(
  dirs: HarnessDirs,
  session: { readonly localId: string; readonly agentId: string; readonly prompt?: string },
): Promise<void> {
  const store = new TranscriptStore(join(dirs.data, 'client', 'sessions'));
  const at = '2026-01-01T00:00:00.000Z';
  const writer = await store.create({
    version: 2,
    localId: session.localId,
    agentId: session.agentId,
    cwd: dirs.workspace,
    additionalDirectories: [],
    createdAt: at,
    updatedAt: at,
    turns: session.prompt === undefined ? 0 : 1,
    attachments: [],
  });
  if (session.prompt !== undefined)
    writer.append({ type: 'prompt', at: 1, turn: 1, prompt: [{ type: 'text', text: session.prompt }] });
  await writer.close();
}
