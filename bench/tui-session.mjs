/**
 * `node bench/tui-session.mjs [--messages 10000] [--updates 100000] [--keys 60] [--runs 3]`
 *
 * Long sessions in `acp` (the production bundle) in tmux, reopened with `--resume` (the scripted
 * agent reattaches with `session/load`):
 * - keystrokes in a session of N messages (default 10,000: 5,000 prompts and replies with
 *   Markdown): keystroke-to-echo, measured in the UI (input received → the frame showing it
 *   written) and from outside (`send-keys` → the character visible in `capture-pane`, polled every
 *   2 ms), and peak RSS. Targets: p99 ≤ 50 ms, RSS ≤ 300 MB.
 * - reopening a recorded session of M updates (default 100,000: streamed message chunks, tool
 *   calls with updates, plans, usage): time from launch until the transcript is printed and the
 *   composer takes input (target ≤ 2 s); then the screen clears written (only the reprints the
 *   app asks for) and whether the newest items are all in tmux's scrollback, in order.
 * `--bundle FILE` runs another build of the UI, `--cpu-prof DIR` profiles it (see tui-common.mjs).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureBundle, machine, median, option, percentile, TuiRun } from './tui-common.mjs';

ensureBundle();
const MESSAGES = Number(option('--messages', 10_000));
const UPDATES = Number(option('--updates', 100_000));
const KEYS = Number(option('--keys', 60));
const RUNS = Number(option('--runs', 3));
/** The UI's default `historyItems`. */
const HISTORY_ITEMS = 120;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const REPLY =
  '## Result\n\nI changed **three** files and ran the tests:\n\n- `src/a.ts`: renamed `parse` to `parseInput`\n' +
  '- `src/b.ts`: updated the import\n- `test/a.test.ts`: new case\n\n```ts\nexport function parseInput(text: string) {\n  return text.trim();\n}\n```\n';

/** Writes a recorded session (the engine's transcript format) and returns its local id. */
function writeSession(dirs, name, build) {
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
function messagesSession(dirs) {
  return writeSession(dirs, 'messages', (push) => {
    const turns = MESSAGES / 2;
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
function updatesSession(dirs) {
  return writeSession(dirs, 'updates', (push) => {
    const turns = Math.ceil(UPDATES / 50);
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
 * and the turn's plan, which stays in the transcript where it was last updated).
 */
function printedTurns(history) {
  const turns = Math.ceil(UPDATES / 50);
  const shown = Math.floor(HISTORY_ITEMS / 4);
  const expected = Array.from({ length: shown }, (_, i) => `Turn ${turns - shown + 1 + i}`);
  const found = [...history.matchAll(/^› (Turn \d+)$/gm)].map((m) => m[1]);
  const notice = /\d[\d,]* earlier items? not shown/.test(history);
  return notice && JSON.stringify(found.slice(-shown)) === JSON.stringify(expected)
    ? 'complete'
    : `incomplete: ${found.length} turns`;
}

const composerText = (screen) => /│ › ([a-z]*)/.exec(screen)?.[1] ?? '';

async function keystrokes() {
  const dirs = TuiRun.makeDirs();
  const { localId, events } = messagesSession(dirs);
  const run = new TuiRun({ dirs, args: ['--resume', localId] });
  try {
    await run.waitFor((s) => s.includes('● connected') && s.includes('Message · / for commands'), {
      timeoutMs: 120_000,
    });
    await sleep(500);
    const outside = [];
    for (let i = 0; i < KEYS; i++) {
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
    const inside = metrics.keyLatenciesMs.slice(-KEYS);
    return { events, inside, outside, rssMb: metrics.maxRssMb };
  } finally {
    run.close();
    rmSync(dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}

async function reopen() {
  const dirs = TuiRun.makeDirs();
  const { localId, events } = updatesSession(dirs);
  const run = new TuiRun({ dirs, args: ['--resume', localId] });
  try {
    const seen = await run.waitFor(
      (s) => s.includes(`Turn ${Math.ceil(UPDATES / 50)}`) && s.includes('Message · / for commands'),
      { timeoutMs: 120_000, everyMs: 5 },
    );
    await run.waitFor('● connected', { timeoutMs: 60_000 });
    const printed = printedTurns(run.history());
    const metrics = await run.quit();
    return {
      events,
      seenMs: Math.round(seen),
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
    rmSync(dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}

const keyRuns = [];
const reopenRuns = [];
for (let i = 0; i < RUNS; i++) {
  keyRuns.push(await keystrokes());
  reopenRuns.push(await reopen());
}
console.log(
  JSON.stringify({ machine: machine(), messages: MESSAGES, updates: UPDATES, keyRuns, reopenRuns }),
);
const inside = keyRuns.flatMap((r) => r.inside);
const outside = keyRuns.flatMap((r) => r.outside);
console.log(
  `\n| ${MESSAGES.toLocaleString('en')}-message session, ${inside.length} keystrokes | p50 (ms) | p99 (ms) | max (ms) |`,
);
console.log('| --- | --- | --- | --- |');
console.log(
  `| keystroke to echo, in the UI | ${median(inside).toFixed(1)} | ${percentile(inside, 99).toFixed(1)} | ${Math.max(...inside).toFixed(1)} |`,
);
console.log(
  `| keystroke to echo, seen in tmux | ${median(outside).toFixed(1)} | ${percentile(outside, 99).toFixed(1)} | ${Math.max(...outside).toFixed(1)} |`,
);
console.log(`| peak RSS (MB), median of ${RUNS} | ${median(keyRuns.map((r) => r.rssMb))} | | |`);
console.log(
  `\n| Reopening a ${UPDATES.toLocaleString('en')}-update session (${reopenRuns[0].events} events), ms since launch | median | max |`,
);
console.log('| --- | --- | --- |');
const m = (pick) => reopenRuns.map(pick);
const line = (name, values) =>
  console.log(`| ${name} | ${median(values).toFixed(0)} | ${Math.max(...values).toFixed(0)} |`);
line(
  'transcript read and shown (UI)',
  m((r) => r.marks['session-drawn']),
);
line(
  'newest items printed (UI)',
  m((r) => r.marks['history-printed']),
);
line(
  'last turn and composer visible (tmux)',
  m((r) => r.seenMs),
);
line(
  'agent reattached (UI)',
  m((r) => r.marks.ready),
);
console.log(
  `| screen clears (reprints asked by the app) | ${m((r) => `${r.screenClears} (${r.reprints})`).join(', ')} | |`,
);
console.log(`| newest turns in the scrollback | ${m((r) => r.scrollback).join(', ')} | |`);
console.log(`| peak RSS (MB) | ${median(m((r) => r.rssMb))} | ${Math.max(...m((r) => r.rssMb))} |`);
