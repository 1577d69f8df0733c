/**
 * `acp` on a dumb terminal (`TERM=dumb`: Emacs `M-x shell`, some CI consoles): the Ink UI needs
 * cursor movement, so the conversation happens in plain lines instead. A prompt line, the answer
 * streamed as plain text by `acp run`'s text renderer, permission questions answered by typing a
 * number. Built on the same client engine; nothing but text and newlines is written.
 */
import { createInterface, type Interface } from 'node:readline';
import { resolve } from 'node:path';
import { commandOutputText, diffTextLines, displayPath, plural, type TuiArguments } from '@acp-kit/tui';
import {
  INTERACTIVE_READ_PACING_MS,
  AcpClient,
  decisionOfOption,
  resolveClientPaths,
  type AgentConnection,
  type AgentEntry,
  type AttachMode,
  type ClientSession,
  type PermissionAnswer,
  type PermissionAsk,
} from '@acp-kit/client';
import { exitCodeForError } from '../errors.js';
import { EXIT_CODES, UsageError } from '../exit-codes.js';
import { oneLine } from '../format.js';
import type { CliIo } from '../io.js';
import { chooseAgent } from './run.js';
import { questionDetails, questionPaths, questionWhat } from './permission-text.js';
import { RunOutput } from './run-output.js';
import { TextRenderer } from './run-render.js';
import { RunStop, STOP_GRACE_MS } from './run-stop.js';

const HELP =
  'type a prompt and press Enter; /quit, Ctrl-C or the end of the input leaves; Ctrl-C during a turn cancels it';

/** Most lines of diff shown with one permission question (the rest is counted). */
export const MAX_QUESTION_DIFF_LINES = 200;

/** Most lines of a command's output shown under it (its last ones; the earlier are counted). */
export const MAX_COMMAND_OUTPUT_LINES = 200;

/** A command's output as the lines printed under it. */
function outputLines(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  const hidden = Math.max(0, lines.length - MAX_COMMAND_OUTPUT_LINES);
  return hidden > 0 ? [`… ${plural(hidden, 'earlier line')}`, ...lines.slice(hidden)] : lines;
}

/** Whether a typed line asks to leave. */
const isQuit = (text: string): boolean => text === '/quit' || text === '/exit';

/** Lines of input, one at a time; undefined once the input has ended. */
class LineReader {
  private readonly waiting: ((line: string | undefined) => void)[] = [];
  private readonly queued: string[] = [];
  private ended = false;
  private readonly lines: Interface;

  constructor(input: NodeJS.ReadableStream) {
    this.lines = createInterface({ input, terminal: false, crlfDelay: Infinity });
    this.lines.on('line', (line) => {
      const next = this.waiting.shift();
      if (next) next(line);
      else this.queued.push(line);
    });
    this.lines.on('close', () => this.close());
  }

  /** Ends the input as if it had ended (Ctrl-C at the prompt, or leaving): stdin is let go. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.lines.close();
    for (const next of this.waiting.splice(0)) next(undefined);
  }

  /** The next line; undefined at the end of the input, or when `signal` aborts first (the line then stays queued). */
  next(signal?: AbortSignal): Promise<string | undefined> {
    const line = this.queued.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended || signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter = (value: string | undefined): void => {
        signal?.removeEventListener('abort', withdraw);
        resolve(value);
      };
      const withdraw = (): void => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        resolve(undefined);
      };
      signal?.addEventListener('abort', withdraw, { once: true });
      this.waiting.push(waiter);
    });
  }
}

/** The answers offered for a question: the agent's options (and always a way to deny), or ours. */
function choicesFor(ask: PermissionAsk): { label: string; answer: PermissionAnswer }[] {
  if (!ask.options || ask.options.length === 0) {
    return [
      { label: 'allow once', answer: { decision: 'allow' } },
      { label: 'allow for this session', answer: { decision: 'allow', scope: 'session' } },
      { label: 'deny', answer: { decision: 'deny' } },
    ];
  }
  const choices = ask.options.map((option): { label: string; answer: PermissionAnswer } => {
    const meaning = decisionOfOption(option);
    // The agent's "always" options are remembered, at least for the session (as in the terminal UI).
    const always = option.kind === 'allow_always' || option.kind === 'reject_always';
    return {
      label: oneLine(option.name, 80),
      answer: {
        decision: meaning === 'deny' ? 'deny' : 'allow',
        optionId: option.optionId,
        ...(always ? { scope: 'session' as const } : {}),
      },
    };
  });
  if (!ask.options.some((option) => decisionOfOption(option) === 'deny'))
    choices.push({ label: 'deny', answer: { decision: 'deny' } });
  return choices;
}

/** The diffs a question carries, as plain lines (at most {@link MAX_QUESTION_DIFF_LINES}). */
function diffLines(ask: PermissionAsk, cwd: string): string[] {
  const out: string[] = [];
  let hidden = 0;
  for (const diff of ask.diffs ?? []) {
    const lines = [
      `${displayPath(diff.path, cwd)}${diff.oldText === null ? ' (new file)' : ''}:`,
      ...diffTextLines(diff.oldText, diff.newText, diff.placement).map((line) => `  ${line.text}`),
    ];
    const room = Math.max(0, MAX_QUESTION_DIFF_LINES - out.length);
    out.push(...lines.slice(0, room));
    hidden += Math.max(0, lines.length - room);
  }
  if (hidden > 0) out.push(`… ${plural(hidden, 'more line')} of diff not shown`);
  return out;
}

/**
 * Asks on the terminal: the question, the diffs it carries, numbered choices, and a typed number
 * (or `y`/`n`). `/quit` calls `onQuit`, which cancels the turn (the question is then answered
 * `cancelled`) and leaves once the turn has ended.
 */
function asker(
  lines: LineReader,
  renderer: () => TextRenderer | undefined,
  cwd: string,
  onQuit: () => void,
): (ask: PermissionAsk) => Promise<PermissionAnswer> {
  return async (ask) => {
    const say = (text: string): void => renderer()?.info(text);
    const choices = choicesFor(ask);
    say(`permission: ${questionWhat(ask, cwd)}${ask.reason ? ` (${oneLine(ask.reason, 120)})` : ''}`);
    for (const line of questionDetails(ask, cwd, 'whole')) say(`  ${line}`);
    const diffed = (ask.diffs ?? []).map((diff) => diff.path);
    for (const line of questionPaths(ask, cwd, diffed)) say(`  ${line}`);
    for (const line of diffLines(ask, cwd)) say(`  ${line}`);
    for (const [i, choice] of choices.entries()) say(`  ${i + 1}) ${choice.label}`);
    for (;;) {
      say(`answer 1-${choices.length} (y = 1, n = deny, /quit = cancel the turn and leave):`);
      const line = await lines.next(ask.signal);
      if (line === undefined) return { decision: 'deny' };
      const text = line.trim().toLowerCase();
      if (isQuit(text)) {
        onQuit();
        return { decision: 'deny' };
      }
      if (text === 'y' || text === 'yes') return (choices[0] as (typeof choices)[number]).answer;
      if (text === 'n' || text === 'no') return { decision: 'deny' };
      const picked = choices[Number(text) - 1];
      if (/^\d+$/.test(text) && picked) return picked.answer;
    }
  };
}

/** A catalog agent picked by typing its number or name (when neither --agent nor a default says). */
async function pickAgent(client: AcpClient, lines: LineReader, io: CliIo): Promise<AgentEntry | undefined> {
  const agents = (await client.catalog.detectAll()).filter((agent) => agent.detection.installed);
  io.stdout.write('Agents:\n');
  for (const [i, agent] of agents.entries())
    io.stdout.write(`  ${i + 1}) ${agent.id} — ${oneLine(agent.name, 60)}\n`);
  for (;;) {
    io.stdout.write(`agent (1-${agents.length} or name)> `);
    const line = await lines.next();
    if (line === undefined) return undefined;
    const text = line.trim();
    const picked = /^\d+$/.test(text) ? agents[Number(text) - 1] : client.catalog.get(text);
    if (picked) return picked;
  }
}

/**
 * Runs the conversation until the input ends or `/quit`; resolves with the exit code.
 *
 * @example
 * TERM=dumb acp --agent demo   # what reaches lineMode({ agent: 'demo' }, io)
 */
export async function lineMode(args: TuiArguments, io: CliIo): Promise<number> {
  if (!io.input) throw new UsageError('the line mode needs an input stream');
  const lines = new LineReader(io.input);
  let renderer: TextRenderer | undefined;
  const cwd = resolve(io.cwd, args.cwd ?? '.');
  /** `/quit` typed at a question: the turn is cancelled, and the conversation ends after it. */
  const quit = { asked: false };
  const onQuit = (): void => {
    if (quit.asked) return;
    quit.asked = true;
    renderer?.info('cancelling the turn; leaving once it has ended');
    void stop.session?.cancel();
  };
  const client = await AcpClient.create({
    paths: resolveClientPaths(io.env),
    env: io.env,
    self: io.self,
    host: { askPermission: asker(lines, () => renderer, cwd, onQuit) },
    coalesceReadsMs: INTERACTIVE_READ_PACING_MS,
    ...(args.protocol ? { protocolVersion: args.protocol } : {}),
  });
  const output = new RunOutput(io.stdout, io.stderr);
  // Every way out but leaving at the prompt (a signal, a broken stdout) goes through `stop`, as in
  // `acp run`: the turn cancelled, the session closed, every agent stopped by process group.
  const stop = new RunStop(client, (note) => renderer?.info(note));
  const offSignal = io.onSignal((signal) => {
    if (signal === 'SIGINT' && !stop.stopping && !stop.turnRunning()) lines.close();
    else stop.signal(signal);
    if (stop.stopping) lines.close();
  });
  let session: ClientSession | undefined;
  try {
    const recorded = args.resume ? await client.transcripts.find(args.resume) : undefined;
    if (args.resume && !recorded)
      throw new UsageError(`no recorded session matches ${args.resume}`, {
        hint: '`acp sessions list` shows the recorded sessions and their ids',
      });
    const entry =
      args.url || args.agent || args.command || recorded?.agentId || client.catalog.defaultAgent
        ? chooseAgent(client, args.agent, args.command, io.cwd, recorded, args.url)
        : await pickAgent(client, lines, io);
    if (!entry) return EXIT_CODES.OK;
    let connection: AgentConnection;
    let how: AttachMode = 'new';
    if (recorded) {
      ({ connection, session, how } = await client.reopen(recorded.localId, { agent: entry }));
    } else {
      connection = await client.connect(entry, { cwd });
      session = await connection.newSession({ cwd });
    }
    stop.session = session;
    connection.addBackpressure(() => output.pressure());
    // No card shows a command's output here: it is printed under the command.
    renderer = new TextRenderer(output, false, {
      toolOutput: (current, call) => outputLines(commandOutputText(call, current.state)),
    });
    renderer.connected(connection);
    renderer.attached(session, how);
    renderer.info(`${oneLine(connection.agent.name)}, session ${session.localId} (line mode: TERM=dumb)`);
    renderer.info(HELP);
    const code = await converse(session, lines, renderer, output, stop, quit);
    return stop.exitCode ?? code;
  } catch (error) {
    if (stop.stopping) return stop.exitCode ?? EXIT_CODES.INTERRUPTED;
    throw error;
  } finally {
    lines.close();
    stop.session ??= session;
    await stop.finish();
    await output.settle(stop.stopping ? STOP_GRACE_MS : Infinity);
    offSignal();
  }
}

/** Prompt, turn, prompt… until `/quit` or the end of the input. */
async function converse(
  session: ClientSession,
  lines: LineReader,
  renderer: TextRenderer,
  output: RunOutput,
  stop: RunStop,
  quit: { readonly asked: boolean },
): Promise<number> {
  for (;;) {
    output.out('> ');
    const line = await lines.next();
    if (line === undefined) {
      output.out('\n');
      return EXIT_CODES.OK;
    }
    const text = line.trim();
    if (text === '') continue;
    if (isQuit(text)) return EXIT_CODES.OK;
    if (text === '/help') {
      renderer.info(HELP);
      continue;
    }
    try {
      const { stopReason, notes } = await stop.startTurn(session.prompt(line));
      for (const note of notes) renderer.info(note);
      renderer.result(String(stopReason));
      if (quit.asked) return EXIT_CODES.OK;
    } catch (error) {
      if (stop.stopping) return stop.exitCode ?? EXIT_CODES.INTERRUPTED;
      renderer.error(error);
      renderer.result(null);
      const code = exitCodeForError(error);
      // The agent is gone: nothing more can be said to it.
      if (code === EXIT_CODES.AGENT_CRASHED) return code;
    }
  }
}
