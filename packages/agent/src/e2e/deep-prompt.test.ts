/**
 * A prompt nested far deeper than `JSON.stringify` can go (reliability case A8, issue item "silent
 * loss"): the agent keeps the turn's user message in its session log, with the too-deep part
 * replaced by a visible marker, so `session/load` replays all three messages.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_STORED_DEPTH, TOO_DEEP_MARKER } from '../session/depth-cap.js';
import { cleanEnv, removeDir, tempDir } from '../test-support/harness.js';
import { RawAgent, type RawFrame } from '../test-support/raw-agent.js';

let work: string;
let home: string;
let agent: RawAgent;

beforeEach(async () => {
  work = await tempDir('ws');
  home = await tempDir('home');
  agent = new RawAgent(['--demo'], {
    cwd: work,
    env: cleanEnv(home, { ACP_KIT_DATA_DIR: join(home, 'data') }),
  });
});

afterEach(async () => {
  agent.kill();
  await agent.exited;
  await removeDir(work);
  await removeDir(home);
});

/** `{"a":{"a":…1…}}`, `depth` objects deep, as text: too deep for JSON.stringify to build. */
function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** How many objects deep `value` nests along its `a` keys, and what is at the bottom. */
function bottom(value: unknown): { depth: number; leaf: unknown } {
  let depth = 0;
  let current = value;
  while (typeof current === 'object' && current !== null) {
    depth++;
    current = (current as { a?: unknown }).a;
  }
  return { depth, leaf: current };
}

describe('a prompt nested thousands of levels deep', () => {
  it.each([6_000, 100_000])(
    'is kept in the session log and replayed by session/load (%i levels)',
    async (depth) => {
      await agent.request(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} });
      const created = await agent.request(2, 'session/new', { cwd: work, mcpServers: [] });
      const { sessionId } = created.result as { sessionId: string };
      const prompt = (id: number, text: string) =>
        agent.request(id, 'session/prompt', { sessionId, prompt: [{ type: 'text', text }] });

      expect((await prompt(3, 'list first')).result).toEqual({ stopReason: 'end_turn' });
      const deep =
        `{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"${sessionId}",` +
        `"prompt":[{"type":"text","text":"list second","_meta":${nested(depth)}}]}}`;
      expect((await agent.request(4, 'session/prompt', undefined, deep)).result).toEqual({
        stopReason: 'end_turn',
      });
      expect((await prompt(5, 'list third')).result).toEqual({ stopReason: 'end_turn' });

      const replayFrom = agent.frames.length;
      const loaded = await agent.request(6, 'session/load', { sessionId, cwd: work, mcpServers: [] });
      expect(loaded.error).toBeUndefined();
      const users = agent.frames
        .slice(replayFrom)
        .filter((f: RawFrame) => f.method === 'session/update')
        .map(
          (f) => (f.params as { update: { sessionUpdate: string; content: Record<string, unknown> } }).update,
        )
        .filter((u) => u.sessionUpdate === 'user_message_chunk');
      expect(users.map((u) => u.content.text)).toEqual(['list first', 'list second', 'list third']);
      // The nesting is kept down to the limit (the record, its event, the event's content list and
      // the block are the 4 levels above `_meta`), then marked.
      expect(bottom(users[1]?.content._meta)).toEqual({ depth: MAX_STORED_DEPTH - 4, leaf: TOO_DEEP_MARKER });
    },
  );
});
