/**
 * Long sessions for the terminal UI benchmarks: recorded sessions written in the engine's
 * transcript format (`events.jsonl` and `meta.json`, as `acp` keeps them), and the two
 * measurements made on them in `acp` in tmux: keystrokes in a session of many messages, and
 * reopening a session of many updates with `--resume`. Shared by `bench/tui-session.mjs` (tables)
 * and `bench/reopen.mjs` (the suite judged against the bare JSON-lines reader).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TuiRun } from '../tui-common.mjs';

/** The UI's default `historyItems`. */
export const HISTORY_ITEMS = 120;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const REPLY =
  '## Result\n\nI changed **three** files and ran the tests:\n\n- `src/a.ts`: renamed `parse` to `parseInput`\n' +
  '- `src/b.ts`: updated the import\n- `test/a.test.ts`: new case\n\n```ts\nexport function parseInput(text: string) {\n  return text.trim();\n}\n```\n';

/** Writes a recorded session (the engine's transcript format) and returns its local id. */
export function writeSession(dirs, name, build) {
  const localId = `s-bench-${name}`;
  const dir = join(dirs.data, 'client', 'sessions', localId);
  mkdirSync(dir, { recursive: true });
  const cwd = dirs.workspace;
  const lines = [];
  let at = 1_700_000_000_000;
  const push = (event) => lines.push(JSON.stringify({ at: at++, ...event }));
  push({
    type: 'attached',
    agentId: 'scenario',
    agentName: 'Scenario',
    agentSessionId: `agent-${name}`,
    how: 'new',
    cwd,
    additionalDirectories: [],
  });
  const turns = build(push);
  writeFileSync(join(dir, 'events.jsonl'), `${lines.join('\n')}\n`);
  const now = new Date().toISOString();
  writeFileSync(
    join(dir, 'meta.json'),
    JSON.stringify({
      version: 1,
      localId,
      agentId: 'scenario',
      agentName: 'Scenario',
      agentSessionId: `agent-${name}`,
      cwd,
      additionalDirectories: [],
      createdAt: now,
      updatedAt: now,
      turns,
      title: `Bench ${name}`,
      attachments: [{ agentId: 'scenario', agentSessionId: `agent-${name}`, how: 'new', at: now }],
    }),
  );
  return { localId, events: lines.length };
}

/** N messages: N/2 prompts, each answered by one Markdown reply. */
export function messagesSession(dirs, messages) {
  return writeSession(dirs, 'messages', (push) => {
    const turns = messages / 2;
    for (let turn = 1; turn <= turns; turn++) {
      push({
        type: 'prompt',
        turn,
        prompt: [{ type: 'text', text: `Step ${turn}: continue the refactoring` }],
      });
      push({
        type: 'update',
        update: {
          sessionUpdate: 'agent_message_chunk',
          messageId: `m${turn}`,
          content: { type: 'text', text: REPLY },
        },
      });
      push({ type: 'turn_end', turn, stopReason: 'end_turn' });
    }
    return turns;
  });
}

/** M updates: per turn of 50, 44 message chunks, a tool call and its update, a plan, usage. */
export function updatesSession(dirs, updates) {
  return writeSession(dirs, 'updates', (push) => {
    const turns = Math.ceil(updates / 50);
    for (let turn = 1; turn <= turns; turn++) {
      push({ type: 'prompt', turn, prompt: [{ type: 'text', text: `Turn ${turn}` }] });
      for (let i = 0; i < 44; i++) {
        push({
          type: 'update',
          update: {
            sessionUpdate: 'agent_message_chunk',
            messageId: `m${turn}`,
            content: { type: 'text', text: `word${i} and **more** text ` },
          },
        });
      }
      push({
        type: 'update',
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: `t${turn}`,
          title: `Read src/file${turn}.ts`,
          kind: 'read',
          status: 'pending',
          locations: [{ path: join(dirs.workspace, `src/file${turn}.ts`) }],
        },
      });
      push({
        type: 'update',
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId: `t${turn}`,
          status: 'completed',
          content: [{ type: 'content', content: { type: 'text', text: 'x'.repeat(200) } }],
        },
      });
      push({
        type: 'update',
        update: {
          sessionUpdate: 'plan',
          entries: [
            { content: 'Refactor', priority: 'high', status: 'in_progress' },
            { content: 'Test', priority: 'medium', status: 'pending' },
          ],
        },
      });
      push({ type: 'update', update: { sessionUpdate: 'usage_update', used: turn * 100, size: 1_000_000 } });
      push({
        type: 'update',
        update: {
          sessionUpdate: 'agent_message_chunk',
          messageId: `m${turn}`,
          content: { type: 'text', text: 'Done.' },
        },
      });
      push({
        type: 'update',
        update: {
          sessionUpdate: 'available_commands_update',
          availableCommands: [{ name: 'help', description: 'Help' }],
        },
      });
      push({ type: 'turn_end', turn, stopReason: 'end_turn' });
    }
    return turns;
  });
}

/**
 * Whether the scrollback shows the newest turns in order: 4 items each (prompt, reply, tool call,
 * and the turn's plan, which stays in the transcript where it was last updated). Each earlier
 * reopening added one item of its own (the agent reattached), which takes the place of one.
 */
export function printedTurns(history, updates, reopenedBefore = 0) {
  const turns = Math.ceil(updates / 50);
  const shown = Math.floor((HISTORY_ITEMS - reopenedBefore) / 4);
  const expected = Array.from({ length: shown }, (_, i) => `Turn ${turns - shown + 1 + i}`);
  const found = [...history.matchAll(/^› (Turn \d+)$/gm)].map((m) => m[1]);
  const notice = /\d[\d,]* earlier items? not shown/.test(history);
  return notice && JSON.stringify(found.slice(-shown)) === JSON.stringify(expected)
    ? 'complete'
    : `incomplete: ${found.length} turns`;
}

const composerText = (screen) => /│ › ([a-z]*)/.exec(screen)?.[1] ?? '';

/** Keystrokes in a session of `messages` messages: echo latency inside the UI and seen in tmux. */
export async function keystrokes({ messages, keys, program }) {
  const dirs = TuiRun.makeDirs();
  const { localId, events } = messagesSession(dirs, messages);
  const run = new TuiRun({ dirs, args: ['--resume', localId], ...(program ? { program } : {}) });
  try {
    await run.waitFor((s) => s.includes('● connected') && s.includes('Message · / for commands'), {
      timeoutMs: 120_000,
    });
    await sleep(500);
    const outside = [];
    for (let i = 0; i < keys; i++) {
      const before = composerText(run.screen()).length;
      const sent = performance.now();
      run.type(String.fromCharCode(97 + (i % 26)));
      for (;;) {
        if (composerText(run.screen()).length > before) break;
        if (performance.now() - sent > 5000) throw new Error('a keystroke was not echoed');
        await sleep(2);
      }
      outside.push(performance.now() - sent);
      await sleep(30);
    }
    const metrics = await run.quit();
    const inside = metrics.keyLatenciesMs.slice(-keys);
    return { events, inside, outside, rssMb: metrics.maxRssMb };
  } finally {
    run.close();
    rmSync(dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}

/**
 * Reopens a recorded session of `updates` updates (a new one, or `session`: one written before
 * into `dirs` with {@link updatesSession}, opened `reopenedBefore` times): milestones in the UI,
 * what tmux shows.
 */
export async function reopen({ updates, program, dirs: given, session, reopenedBefore = 0 }) {
  const dirs = given ?? TuiRun.makeDirs();
  const { localId, events } = session ?? updatesSession(dirs, updates);
  const run = new TuiRun({ dirs, args: ['--resume', localId], ...(program ? { program } : {}) });
  try {
    const seen = await run.waitFor(
      (s) => s.includes(`Turn ${Math.ceil(updates / 50)}`) && s.includes('Message · / for commands'),
      { timeoutMs: 120_000, everyMs: 5 },
    );
    // The agent's session loaded again (context: a reopened session's agent starts once its
    // history is printed).
    const connected = await run.waitFor('● connected', { timeoutMs: 60_000, everyMs: 5 });
    const printed = printedTurns(run.history(), updates, reopenedBefore);
    const metrics = await run.quit();
    return {
      events,
      seenMs: Math.round(seen),
      connectedMs: Math.round(connected),
      marks: metrics.marks,
      rssMb: metrics.maxRssMb,
      // Every turn of the newest items in the scrollback, in order, after the "earlier items" line.
      scrollback: printed,
      screenClears: metrics.screenClears,
      reprints: metrics.reprints,
      largestWrite: metrics.largestWrite,
    };
  } finally {
    run.close();
    if (!given) rmSync(dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}
