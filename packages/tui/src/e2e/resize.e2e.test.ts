/**
 * Resizing the terminal while an answer streams, in tmux (which rewraps its screen and
 * scrollback like most terminals): no stale copy of the live message is left on screen or in
 * the scrollback.
 */
import { describe, expect, it } from 'vitest';
import { makeScenarioDirs } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How many times each streamed list item (`item 10`, `item 20`…) appears in `text`. */
function itemCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/item (\d+) with/g)) {
    const item = match[1] as string;
    counts.set(item, (counts.get(item) ?? 0) + 1);
  }
  return counts;
}

describe('resizing while an answer streams', () => {
  it('leaves no stale copy of the live message on screen or in the scrollback', async () => {
    tmux.keep(makeScenarioDirs());
    const h = tmux.launch({ args: ['--agent', 'scenario'], columns: 100, rows: 30 });
    await h.waitFor('Connected to scenario: new session');
    // 200 chunks at 25 a second: about 8 s of streaming, list items every 10 chunks.
    await h.submit('stream 200 25');
    await h.waitFor('word3');
    await pause(1500);
    h.tmux('resize-window', '-t', 'main', '-x', '70', '-y', '30');
    await pause(1500);
    h.tmux('resize-window', '-t', 'main', '-x', '110', '-y', '30');
    await pause(1500);
    h.tmux('resize-window', '-t', 'main', '-x', '60', '-y', '24');
    await h.waitFor(/word199/, { history: true, timeoutMs: 60_000 });
    await h.waitFor(/Message ·/);
    await pause(500);
    const history = h.history();
    const counts = itemCounts(history);
    // Every 10th chunk is a list item, every 50th a heading instead.
    const items = Array.from({ length: 19 }, (_, i) => (i + 1) * 10).filter((n) => n % 50 !== 0);
    expect([...counts.keys()]).toEqual(items.map(String));
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // One composer: no piece of an earlier frame's box left behind.
    expect(history.match(/╭/g)).toHaveLength(1);
    expect(history.match(/Part 1/g)).toHaveLength(1);
  }, 90_000);
});
