/**
 * What `acp run` prints. Text: the agent's message on stdout; tool calls, plans, permission
 * decisions and problems on stderr, all agent-controlled text through `@acp-kit/client`'s
 * sanitizer. JSON (`run-json.ts`): one object per line on stdout. Both write through a
 * {@link RunOutput}: batched, in order, with backpressure.
 */
import type {
  AgentConnection,
  AgentUpdate,
  AttachMode,
  ClientSession,
  SessionEvent,
  ToolCallItem,
} from '@acp-kit/client';
import { TextSanitizer } from '@acp-kit/client';
import { errorReport, formatErrorReport } from '../errors.js';
import { oneLine, safe } from '../format.js';
import { questionDetails, questionWhat } from './permission-text.js';
import type { RunOutput } from './run-output.js';

export { API_KEY_VARIABLE } from '../errors.js';
export { JsonRenderer } from './run-json.js';

/** Receives what happens during `acp run`. */
export interface RunRenderer {
  /** Where it writes; the run waits for it (backpressure) and settles it at the end. */
  readonly output: RunOutput;
  /** Before the session exists. */
  connected(connection: AgentConnection): void;
  /**
   * The local session, before it is bound to the agent's (updates may arrive before `session/new`
   * or `session/resume` answers, and a load replays history before it does).
   */
  opening?(session: ClientSession): void;
  attached(session: ClientSession, how: AttachMode, agentId: string): void;
  info(text: string): void;
  error(error: unknown, exitCode: number): void;
  result(stopReason: string | null, exitCode: number): void;
}

/** Options of {@link TextRenderer}. */
export interface TextRendererOptions {
  /**
   * Lines of a finished tool call's output to print under it (the line mode: there is no card
   * to show it); undefined for none.
   */
  readonly toolOutput?: (session: ClientSession, call: ToolCallItem) => readonly string[] | undefined;
}

/** Longest thought line shown by `--verbose` (longer ones are cut). */
const MAX_THOUGHT_LINE = 300;

/** Human-readable output. */
export class TextRenderer implements RunRenderer {
  private atLineStart = true;
  private lastMessageKey: string | undefined;
  /** Streaming: an escape sequence split across two chunks of a message is still removed. */
  private readonly messageText = new TextSanitizer();
  private plan: string[] = [];
  /** `--verbose`: thought chunks collected into lines (a chunk is often one word). */
  private thought = '';

  constructor(
    readonly output: RunOutput,
    private readonly verbose: boolean,
    private readonly options: TextRendererOptions = {},
  ) {}

  connected(connection: AgentConnection): void {
    connection.events.on('noise', ({ sample }) =>
      this.note(`warning: the agent printed non-JSON text on stdout: ${oneLine(sample, 100)}`),
    );
    // A login prints its URL or asks for a code: always shown (Ctrl-C stops waiting).
    connection.events.on('signInOutput', ({ text }) => {
      for (const line of text.split('\n'))
        if (line.trim() !== '') this.note(`agent (signing in): ${oneLine(line, 500)}`);
    });
    if (this.verbose) {
      connection.events.on('stderr', ({ text }) => {
        for (const line of text.split('\n'))
          if (line.trim() !== '') this.note(`agent: ${oneLine(line, 300)}`);
      });
      connection.events.on('diagnostic', ({ message }) => this.note(`diagnostic: ${oneLine(message, 300)}`));
    }
  }

  attached(session: ClientSession, how: AttachMode): void {
    if (how === 'continuity')
      this.note('the agent could not reopen this session: continuing from the saved transcript');
    session.store.onEvent((event) => this.onEvent(session, event));
  }

  info(text: string): void {
    this.note(text);
  }

  /** The one error style of `acp` (see errors.ts), auth methods included in the hint. */
  error(error: unknown): void {
    this.endThought();
    if (this.output.stdout.isTTY && this.output.stderr.isTTY) this.endLine();
    this.output.err(formatErrorReport(errorReport(error, { command: 'run' })));
  }

  result(stopReason: string | null): void {
    this.endThought();
    this.endLine();
    if (stopReason !== null && stopReason !== 'end_turn') this.note(`stopped: ${stopReason}`);
  }

  private onEvent(session: ClientSession, event: SessionEvent): void {
    switch (event.type) {
      case 'update':
        this.onUpdate(session, event.update);
        return;
      case 'permission_resolved': {
        const item = [...session.state.items].reverse().find((i) => i.kind === 'permission');
        if (!item || item.kind !== 'permission') return;
        const request = item.request;
        const cwd = session.state.cwd;
        const verb =
          event.decision === 'allow' ? 'allowed' : event.decision === 'deny' ? 'denied' : 'cancelled';
        this.note(
          `permission ${verb}: ${questionWhat(request, cwd)}${event.reason ? ` (${oneLine(event.reason, 120)})` : ''}`,
        );
        for (const line of questionDetails(request, cwd, 'output')) this.note(`  ${line}`);
        return;
      }
      case 'stalled':
        this.note(`no activity from the agent for ${Math.round(event.silentMs / 1000)}s`);
        return;
      default:
        return;
    }
  }

  private onUpdate(session: ClientSession, update: AgentUpdate): void {
    if (update.kind === 'message_chunk' && update.role === 'thought') {
      if (this.verbose) this.addThought((update.content as { text?: string }).text ?? '');
      return;
    }
    // A thought ends where anything else begins.
    this.endThought();
    if (update.kind === 'message_chunk' && update.role === 'agent') {
      const items = session.state.items;
      const key = items[items.length - 1]?.key;
      if (key !== this.lastMessageKey) {
        if (this.lastMessageKey !== undefined && !this.atLineStart) this.write('\n');
        this.messageText.reset();
      }
      this.lastMessageKey = key;
      const content = update.content as { type?: string; text?: string; uri?: string; mimeType?: string };
      if (content.type === 'text')
        // A `\r` is dropped (`\r\n` stays one newline even when split across two chunks).
        this.write(this.messageText.write(content.text ?? ''));
      else if (content.type === 'resource_link') this.write(`[${safe(content.uri ?? 'link')}]`);
      else
        this.write(`[${safe(String(content.type))}${content.mimeType ? ` ${safe(content.mimeType)}` : ''}]`);
      return;
    }
    if (update.kind === 'tool_call') {
      const index = session.state.toolCallIndex[update.toolCallId];
      const item = index === undefined ? undefined : (session.state.items[index] as ToolCallItem);
      if (!item) return;
      if (update.newInstance) this.note(`tool: ${oneLine(item.title)} [${item.toolKind}]`);
      const status = update.patch.status;
      if (status === 'completed') this.note(`  done: ${oneLine(item.title)}`);
      if (status === 'failed') this.note(`  failed: ${oneLine(item.title)}`);
      if (status === 'cancelled') this.note(`  cancelled: ${oneLine(item.title)}`);
      if (status === 'completed' || status === 'failed' || status === 'cancelled')
        this.toolOutput(session, item);
      return;
    }
    if (update.kind === 'plan') {
      const lines = update.entries.map((entry) => {
        const box = entry.status === 'completed' ? '[x]' : entry.status === 'in_progress' ? '[~]' : '[ ]';
        return `${box} ${oneLine(entry.content)}`;
      });
      // The whole plan when it is new, then only the entries that changed.
      const changed =
        this.plan.length === lines.length ? lines.filter((line, i) => line !== this.plan[i]) : undefined;
      this.plan = lines;
      if (changed === undefined) {
        this.note('plan:');
        for (const line of lines) this.note(`  ${line}`);
      } else {
        for (const line of changed) this.note(`plan: ${line}`);
      }
      return;
    }
    if (update.kind === 'mode') {
      this.note(`mode: ${oneLine(update.currentModeId)}`);
      return;
    }
    if (update.kind === 'notice') {
      this.note(
        `notice (${oneLine(update.severity)}): ${oneLine(update.title)}${update.description ? ` — ${oneLine(update.description)}` : ''}`,
      );
    }
  }

  private toolOutput(session: ClientSession, item: ToolCallItem): void {
    for (const line of this.options.toolOutput?.(session, item) ?? []) this.note(`    ${line}`);
  }

  /** Collects a thought chunk; each complete line is one `thinking:` note. */
  private addThought(text: string): void {
    this.thought += text;
    const lines = this.thought.split('\n');
    this.thought = lines.pop() ?? '';
    for (const line of lines) this.thinking(line);
    // A thought that never breaks its line is still shown, a note's worth at a time.
    if (this.thought.length > MAX_THOUGHT_LINE) this.endThought();
  }

  private endThought(): void {
    const rest = this.thought;
    this.thought = '';
    this.thinking(rest);
  }

  private thinking(line: string): void {
    if (line.trim() !== '') this.note(`thinking: ${oneLine(line, MAX_THOUGHT_LINE)}`);
  }

  private write(text: string): void {
    if (text === '') return;
    this.output.out(text);
    this.atLineStart = text.endsWith('\n');
  }

  private endLine(): void {
    if (!this.atLineStart) this.write('\n');
  }

  private note(text: string): void {
    // Keep the message and the notes on separate lines when both go to one terminal.
    if (this.output.stdout.isTTY && this.output.stderr.isTTY) this.endLine();
    // Notes quote agent text (titles, paths, errors): sanitised again here, whatever the caller did.
    this.output.err(`▸ ${safe(text)}\n`);
  }
}
