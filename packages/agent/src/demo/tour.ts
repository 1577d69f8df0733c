/**
 * The demo's default turn: a scripted tour that does real work on the workspace through the same
 * tools, permissions and reporting as the model agent — list, search, read, record notes (an
 * edit through the permission flow), run a command — with a plan that progresses. A client that
 * can follow more (v2: messages replaced by id, work that outlives the turn) also gets a progress
 * message kept up to date, the thought rewritten once the tour is done, and a command started in
 * the background that goes on after the turn; a v1 client gets the tour it always had.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { PlanEntry, StopReason } from '../core/events.js';
import { PLAN_ID } from '../session/session.js';
import type { Turn } from '../session/turn.js';
import type { ToolRunResult } from '../tools/runner.js';
import { clip, countLines, firstLine, plural } from '../util/text.js';
import { NOTES_FILE, notesChange, type TourFacts } from './notes.js';
import { stream } from './pacing.js';
import { promptTopic } from './prompt-topic.js';

export interface TourOptions {
  delayMs: number;
  thoughts: boolean;
}

const INTRO =
  '**This is the acp-kit demo agent. It has no language model:** every turn runs the same script on ' +
  'the files in your workspace, so you can see how your client shows each part of ACP. It will list ' +
  'and search files, read one, record what it found in `ACP_DEMO.md` (asking your permission first), ' +
  'and run a command.\n\nType `/help` for commands, or start a prompt with `run <command>`, ' +
  '`read <file>`, `list <glob>`, `grep <regex>` or `slow` for a single step.\n\n';

const STEPS = [
  'List the workspace',
  'Search it',
  'Read a file',
  `Record notes in ${NOTES_FILE}`,
  'Run a command',
];
/** The step a client that follows background work gets too. */
const BACKGROUND_STEP = 'Start a command in the background';

/** A short command that prints a few lines over a few seconds, then ends by itself. */
export const BACKGROUND_COMMAND = 'for i in 1 2 3; do echo "tick $i"; sleep 1; done; echo done';

function plan(steps: readonly string[], done: number, skipped: ReadonlySet<number> = new Set()): PlanEntry[] {
  return steps.map((content, index) => ({
    content: skipped.has(index) ? `${content} (skipped)` : content,
    priority: index === 3 ? 'high' : 'medium',
    status: index < done || skipped.has(index) ? 'completed' : index === done ? 'in_progress' : 'pending',
  }));
}

function outcomeText(result: ToolRunResult): string {
  switch (result.status) {
    case 'completed':
      return 'done';
    case 'rejected':
      return `not done (${result.output.replace(/^Not run: /, '').replace(/\.$/, '')})`;
    case 'failed':
      return `failed (${clip(firstLine(result.output), 120)})`;
    case 'cancelled':
      return 'cancelled';
    case 'stopped':
      return 'cancelled by you';
  }
}

/** Runs the tour; returns `cancelled` as soon as a step is cancelled. */
export async function runTour(turn: Turn, options: TourOptions): Promise<StopReason> {
  const { session, signal, tools } = turn;
  // Each piece of text between tool calls is its own message.
  const say = (text: string): Promise<void> => {
    turn.message.next();
    return stream(turn.message, text, options.delayMs, signal);
  };
  if (options.thoughts) {
    await stream(
      turn.thought,
      'No model here: running the scripted demo tour on the workspace. ',
      options.delayMs,
      signal,
    );
  }
  await say(INTRO + attachmentNote(turn) + mcpNote(tools.list().map((tool) => tool.name)));
  await session.emit({
    type: 'notice',
    severity: 'info',
    title: 'Demo agent: no language model',
    description: 'Turns are scripted. Configure a model and run `acp agent` for real answers.',
  });
  const skipped = new Set<number>();
  const { features } = session.client;
  const steps = features.backgroundWork ? [...STEPS, BACKGROUND_STEP] : STEPS;
  // v2: one message that says how far the tour got, replaced at each step (never a v1 chunk).
  const progressId = features.messageUpserts ? randomUUID() : undefined;
  const advance = async (done: number): Promise<void> => {
    await session.emit({ type: 'plan', planId: PLAN_ID, entries: plan(steps, done, skipped) });
    if (!progressId) return;
    const text =
      done < steps.length
        ? `Tour progress: ${done} of ${steps.length} steps done; now: ${steps[done]?.toLowerCase()}.`
        : `Tour progress: all ${steps.length} steps done.`;
    await session.emit({
      type: 'message',
      role: 'agent',
      messageId: progressId,
      content: [{ type: 'text', text }],
    });
  };
  await advance(0);

  const listed = await tools.run('list_files', { pattern: '**/*', limit: 200 }, signal);
  if (listed.status === 'cancelled') return 'cancelled';
  const files =
    listed.status === 'completed' && !listed.output.startsWith('No files') ? listed.output.split('\n') : [];
  await advance(1);

  // What the prompt names: the file it mentions, the words it asks about.
  const topic = await promptTopic(turn.prompt, files, session.workspace);
  const pattern = topic.search.pattern;
  const search = await tools.run(
    'grep',
    { pattern, caseInsensitive: topic.search.caseInsensitive, maxResults: 20 },
    signal,
  );
  if (search.status === 'cancelled') return 'cancelled';
  const matches = search.output.startsWith('No matches') ? 0 : search.output.split('\n').length;
  await advance(2);

  const facts: TourFacts = {
    prompt: clip(firstLine(turn.text) || '(no text)', 80),
    search: { pattern, matches: plural(matches, 'matching line') },
  };
  const file = topic.file;
  let readText = topic.missing
    ? `found no \`${topic.missing}\` in the workspace, nor another text file to read`
    : 'found no text file to read';
  if (file) {
    const read = await tools.run('read_file', { path: file, limit: 40 }, signal);
    if (read.status === 'cancelled') return 'cancelled';
    const lines = read.status === 'completed' ? countLines(read.output) : 0;
    if (read.status === 'completed')
      facts.file = { path: session.workspace.display(resolve(session.workspace.cwd, file)), lines };
    readText =
      (topic.missing ? `found no \`${topic.missing}\` in the workspace, so I ` : '') +
      (read.status === 'completed'
        ? `read \`${file}\` (${plural(lines, 'line')})`
        : `tried to read \`${file}\`: ${outcomeText(read)}`);
  } else {
    skipped.add(2);
  }
  await advance(3);

  if (session.mode === 'plan') {
    const leave = await tools.run(
      'exit_plan_mode',
      { plan: `1. Record what I found in \`${NOTES_FILE}\`.\n2. Run \`${listCommand()}\`.`, mode: 'ask' },
      signal,
    );
    if (leave.status === 'cancelled') return 'cancelled';
    if (leave.status !== 'completed') {
      await say(`Staying in plan mode, so I changed nothing. So far I ${readText}.`);
      return 'end_turn';
    }
  }

  const existing = await readFile(join(session.workspace.cwd, NOTES_FILE), 'utf8').catch(() => null);
  const change = notesChange(existing, facts);
  const edit = await tools.run(change.tool, change.input, signal);
  if (edit.status === 'cancelled') return 'cancelled';
  await advance(4);

  const command = await tools.run('run_command', { command: listCommand() }, signal);
  if (command.status === 'cancelled') return 'cancelled';
  await advance(5);

  let backgroundText = '';
  if (features.backgroundWork) {
    // Outlives its tool call and this turn: listed as background work until it ends by itself.
    const started = await tools.run(
      'run_command',
      { command: backgroundCommand(), background: true },
      signal,
    );
    if (started.status === 'cancelled') return 'cancelled';
    await advance(6);
    backgroundText =
      started.status === 'completed'
        ? '; a command started in the background goes on after this turn (watch it end)'
        : `; starting a command in the background: ${outcomeText(started)}`;
  }

  const used = Math.round(JSON.stringify(session.records()).length / 4);
  await session.emit({
    type: 'usage',
    used,
    size: 200_000,
    cost: { amount: 0, currency: 'USD' },
  });
  await say(
    `Done. I ${readText}; recording notes in \`${NOTES_FILE}\`: ${outcomeText(edit)}; ` +
      `running \`${listCommand()}\`: ${outcomeText(command)}${backgroundText}. ` +
      '(Usage above is an estimate: no model, no cost.)',
  );
  if (features.messageUpserts && options.thoughts && turn.thought.hasContent) {
    // The thought, rewritten now that the tour is over (a v2 client replaces it in place).
    await session.emit({
      type: 'message',
      role: 'thought',
      messageId: turn.thought.messageId,
      content: [{ type: 'text', text: `No model here: ran the scripted demo tour (${steps.length} steps).` }],
    });
  }
  return 'end_turn';
}

/** What the prompt carried besides text: the demo cannot look at it, but says it arrived. */
function attachmentNote(turn: Turn): string {
  const parts = turn.prompt.flatMap((block) => {
    const b = block as {
      type: string;
      mimeType?: string;
      data?: string;
      uri?: string;
      resource?: { uri: string };
    };
    if (b.type === 'image' || b.type === 'audio') {
      return [`an ${b.type} (${b.mimeType ?? '?'}, ${Math.round(((b.data?.length ?? 0) * 3) / 4)} bytes)`];
    }
    if (b.type === 'resource') return [`embedded \`${b.resource?.uri ?? '?'}\``];
    if (b.type === 'resource_link') return [`a link to \`${b.uri ?? '?'}\``];
    return [];
  });
  if (parts.length === 0) return '';
  return `You attached ${parts.join(', ')}; with no model I can only note ${parts.length === 1 ? 'it' : 'them'}.\n\n`;
}

/** Which MCP tools the client's servers gave us (the demo lists them; it never calls them). */
function mcpNote(toolNames: readonly string[]): string {
  const names = toolNames.filter((name) => name.startsWith('mcp__'));
  if (names.length === 0) return '';
  return `Your MCP servers offer ${names.map((name) => `\`${name}\``).join(', ')}; a model agent could call them.\n\n`;
}

/** The background step's command on every platform. */
export function backgroundCommand(): string {
  return process.platform === 'win32' ? 'ping -n 4 127.0.0.1' : BACKGROUND_COMMAND;
}

/** A harmless, informative command on every platform. */
export function listCommand(): string {
  return process.platform === 'win32' ? 'dir' : 'ls -la';
}
