/**
 * The agent's events as v1 `session/update`s, one session at a time. What v1 cannot say is
 * rendered the way v1 clients have always been shown it:
 * - foreground state is not sent (the prompt response carries the stop reason);
 * - the user's own message is not echoed live (only replayed when a session is loaded);
 * - a message upsert is sent as chunks (later upserts as the text they add: v1 cannot replace);
 * - agent-owned terminals stream through the `_meta.terminal_output` channel to clients that
 *   render it (Claude's and Codex's adapters use it), else as the tool call's text content;
 * - `cancelled`/`paused` tool calls are `failed`/`in_progress`; a mode change is also a
 *   `current_mode_update`; plans are the session's one plan.
 */
import type {
  AgentSideConnection,
  ContentBlock as WireBlock,
  Logger,
  PlanEntry as WirePlanEntry,
  SessionConfigOption,
  SessionUpdate,
  ToolCallContent,
  ToolCallStatus as WireStatus,
  ToolCallUpdate,
} from '@acp-kit/protocol';
import type { EventSink } from '../../core/client-port.js';
import type {
  AgentEvent,
  ConfigOption,
  MessageRole,
  Meta,
  PlanEntry,
  ToolCallEvent,
  ToolCallStatus,
  ToolContent,
} from '../../core/events.js';
import { codeBlock, keepTail } from '../../util/text.js';
import { sameInBoth } from '../shared.js';

/** What the client advertised that changes what it is sent. */
export interface V1Features {
  notices: boolean;
  compaction: boolean;
  /** `_meta.terminal_output`: the client renders terminals streamed through `_meta`. */
  terminalMeta: boolean;
}

const CHUNK_KIND = {
  user: 'user_message_chunk',
  agent: 'agent_message_chunk',
  thought: 'agent_thought_chunk',
} as const satisfies Record<MessageRole, string>;

/** Output kept per terminal to show it as text (as the client's own terminals keep it). */
const TERMINAL_TEXT_BYTES = 64 * 1024;
/** Gap between two text snapshots of a streaming terminal. */
const STREAM_INTERVAL_MS = 100;

/** Model blocks are ACP blocks: the model declares the same shapes (a v2 prompt's extra keys ride along). */
const wireBlock = (block: unknown): WireBlock => block as WireBlock;

export function v1Status(status: ToolCallStatus): WireStatus {
  if (status === 'cancelled') return 'failed';
  if (status === 'paused') return 'in_progress';
  return status;
}

function planEntry(entry: PlanEntry): WirePlanEntry {
  return entry.status === 'cancelled'
    ? { content: `${entry.content} (cancelled)`, priority: entry.priority, status: 'completed' }
    : { content: entry.content, priority: entry.priority, status: entry.status };
}

export function v1ConfigOptions(options: readonly ConfigOption[]): SessionConfigOption[] {
  return options.map((option) => ({ ...option }) as SessionConfigOption);
}

/** Renders one terminal reference (the client's own terminals pass as they are). */
type TerminalRender = (terminalId: string) => ToolCallContent;

export function v1ToolContent(items: readonly ToolContent[], terminal: TerminalRender): ToolCallContent[] {
  return items.flatMap((item): ToolCallContent[] => {
    if (item.type === 'content') return [{ type: 'content', content: wireBlock(item.content) }];
    if (item.type === 'terminal') return [terminal(item.terminalId)];
    return item.files.map((file) => ({
      type: 'diff',
      path: file.path,
      oldText: file.operation === 'add' ? null : (file.oldText ?? ''),
      newText: file.newText ?? '',
    }));
  });
}

/** The v1 fields of a tool-call event (a `tool_call` when it is new, else a `tool_call_update`). */
export function v1ToolCall(
  event: Omit<ToolCallEvent, 'type'>,
  terminal: TerminalRender,
): ToolCallUpdate & { title?: string | null } {
  const update: ToolCallUpdate = { toolCallId: event.toolCallId };
  if (event.name !== undefined) update.name = event.name;
  if (event.title !== undefined) update.title = event.title;
  if (event.kind !== undefined) update.kind = event.kind;
  if (event.status !== undefined) update.status = event.status === null ? null : v1Status(event.status);
  if (event.content !== undefined)
    update.content = event.content === null ? null : v1ToolContent(event.content, terminal);
  if (event.locations !== undefined) update.locations = event.locations;
  if (event.rawInput !== undefined) update.rawInput = event.rawInput;
  if (event.rawOutput !== undefined) update.rawOutput = event.rawOutput;
  if (event.meta !== undefined) update._meta = event.meta;
  return update;
}

/** Shows every terminal reference as it is (the permission question's tool call has no live terminal). */
export const passTerminal: TerminalRender = (terminalId) => ({ type: 'terminal', terminalId });

interface AgentTerminal {
  toolCallId?: string;
  cwd?: string;
  output: string;
  /** `_meta.terminal_info` was sent with the tool call that shows it. */
  introduced: boolean;
  timer?: NodeJS.Timeout;
}

interface CallState {
  status: ToolCallStatus;
  content: ToolContent[];
  /** `_meta.terminal_exit` waiting for the call's final update. */
  exit?: Meta;
}

const FINAL = new Set<ToolCallStatus>(['completed', 'failed', 'cancelled']);

/** One session's events into v1 updates (see the module comment for what v1 cannot say). */
export class V1Sink implements EventSink {
  /** The mode the client was last told of. */
  private shownMode: string | undefined;
  private readonly terminals = new Map<string, AgentTerminal>();
  private readonly calls = new Map<string, CallState>();
  /** Messages sent as upserts: their text so far. */
  private readonly upserted = new Map<string, string>();

  constructor(
    private readonly sessionId: string,
    private readonly connection: AgentSideConnection,
    private readonly features: V1Features,
    private readonly logger: Logger,
  ) {}

  /** What the session response told the client about the mode. */
  modeShown(mode: string): void {
    this.shownMode = mode;
  }

  accepts(event: AgentEvent): boolean {
    if (event.type === 'notice') return this.features.notices;
    if (event.type === 'compaction' || event.type === 'compaction_chunk') return this.features.compaction;
    return true;
  }

  send(event: AgentEvent): Promise<void> {
    return this.write(this.live(event));
  }

  async replay(events: readonly AgentEvent[]): Promise<void> {
    for (const event of events) {
      if (this.accepts(event)) await this.write(this.replayed(event));
    }
  }

  /** Stops what is waiting to be sent (the session closed). */
  dispose(): void {
    for (const terminal of this.terminals.values()) clearTimeout(terminal.timer);
    this.terminals.clear();
  }

  /** Every update is handed to the connection at once, so they reach the wire in this order. */
  private async write(updates: SessionUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    await Promise.all(
      updates.map((update) => this.connection.sessionUpdate({ sessionId: this.sessionId, update })),
    );
  }

  private replayed(event: AgentEvent): SessionUpdate[] {
    if (event.type === 'message')
      return event.content.map((content) => this.chunk(event.role, event.messageId, content));
    return this.live(event);
  }

  private chunk(role: MessageRole, messageId: string, content: unknown): SessionUpdate {
    return { sessionUpdate: CHUNK_KIND[role], messageId, content: wireBlock(content) } as SessionUpdate;
  }

  private live(event: AgentEvent): SessionUpdate[] {
    switch (event.type) {
      case 'message':
        return this.messageUpsert(event.role, event.messageId, event.content);
      case 'message_chunk':
        return [this.chunk(event.role, event.messageId, event.content)];
      case 'tool_call':
        return [this.toolCall(event)];
      case 'tool_call_chunk': {
        const call = this.calls.get(event.toolCallId);
        if (!call) return [];
        call.content = [...call.content, event.content];
        return [this.toolCall({ type: 'tool_call', toolCallId: event.toolCallId, content: call.content })];
      }
      case 'terminal':
        return this.terminal(event);
      case 'terminal_output':
        return this.terminalOutput(event.terminalId, event.data);
      case 'plan':
        return [{ sessionUpdate: 'plan', entries: event.entries.map(planEntry) }];
      case 'usage':
      case 'session_info':
      case 'notice':
      case 'compaction':
        return [sameInBoth(event)];
      case 'compaction_chunk':
        return [
          {
            sessionUpdate: 'compaction_summary_chunk',
            compactionId: event.compactionId,
            content: wireBlock(event.content),
          },
        ];
      case 'commands':
        return [
          {
            sessionUpdate: 'available_commands_update',
            availableCommands: event.commands.map((command) => ({
              name: command.name,
              description: command.description,
              ...(command.inputHint ? { input: { hint: command.inputHint } } : {}),
            })),
          },
        ];
      case 'config_options':
        return this.configOptions(event.options);
      case 'state':
        // The prompt response says how the turn ended; background work shows in its terminal.
        return [];
    }
  }

  private messageUpsert(role: MessageRole, messageId: string, content: readonly unknown[]): SessionUpdate[] {
    // A v1 client shows its own prompt; the agent echoes it only in a replay.
    if (role === 'user') return [];
    const blocks = content as { type: string; text?: string }[];
    const key = `${role}:${messageId}`;
    const before = this.upserted.get(key);
    if (before === undefined) {
      const text = blocks.every((b) => b.type === 'text') ? blocks.map((b) => b.text ?? '').join('') : '';
      this.upserted.set(key, text);
      return blocks.map((block) => this.chunk(role, messageId, block));
    }
    const text = blocks.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('');
    if (!blocks.every((b) => b.type === 'text') || !text.startsWith(before)) {
      this.logger.log('debug', 'a v1 client cannot see a message replaced', { messageId });
      return [];
    }
    this.upserted.set(key, text);
    return text.length > before.length
      ? [this.chunk(role, messageId, { type: 'text', text: text.slice(before.length) })]
      : [];
  }

  private configOptions(options: readonly ConfigOption[]): SessionUpdate[] {
    const updates: SessionUpdate[] = [];
    const mode = options.find((option) => option.id === 'mode');
    if (mode && typeof mode.currentValue === 'string' && mode.currentValue !== this.shownMode) {
      this.shownMode = mode.currentValue;
      updates.push({ sessionUpdate: 'current_mode_update', currentModeId: mode.currentValue });
    }
    updates.push({ sessionUpdate: 'config_option_update', configOptions: v1ConfigOptions(options) });
    return updates;
  }

  private renderTerminal = (terminalId: string): ToolCallContent => {
    const terminal = this.terminals.get(terminalId);
    if (!terminal || this.features.terminalMeta) return { type: 'terminal', terminalId };
    return {
      type: 'content',
      content: { type: 'text', text: codeBlock(terminal.output || '(no output yet)') },
    };
  };

  private toolCall(event: ToolCallEvent): SessionUpdate {
    const state = this.calls.get(event.toolCallId) ?? { status: 'pending', content: [] };
    if (event.isNew) state.exit = undefined;
    if (event.status) state.status = event.status;
    if (event.content !== undefined) state.content = event.content ?? [];
    this.calls.set(event.toolCallId, state);
    const update = v1ToolCall(event, this.renderTerminal);
    const meta: Meta = { ...(event.meta ?? {}) };
    for (const item of event.content ?? []) {
      if (item.type !== 'terminal') continue;
      const terminal = this.terminals.get(item.terminalId);
      if (!terminal) continue;
      // The content shows the latest output: no snapshot needs to follow.
      clearTimeout(terminal.timer);
      terminal.timer = undefined;
      if (this.features.terminalMeta && !terminal.introduced) {
        terminal.introduced = true;
        meta.terminal_info = { terminal_id: item.terminalId, ...(terminal.cwd ? { cwd: terminal.cwd } : {}) };
      }
    }
    if (state.exit && FINAL.has(state.status)) {
      Object.assign(meta, state.exit);
      state.exit = undefined;
    }
    if (Object.keys(meta).length > 0) update._meta = meta;
    if (event.isNew)
      return { sessionUpdate: 'tool_call', ...update, title: event.title ?? '' } as SessionUpdate;
    return { sessionUpdate: 'tool_call_update', ...update };
  }

  private terminal(event: Extract<AgentEvent, { type: 'terminal' }>): SessionUpdate[] {
    // The client shows its own terminals.
    if (event.owner === 'client') return [];
    let terminal = this.terminals.get(event.terminalId);
    if (!terminal) {
      terminal = { output: '', introduced: false };
      this.terminals.set(event.terminalId, terminal);
    }
    if (event.toolCallId !== undefined) terminal.toolCallId = event.toolCallId;
    if (event.cwd !== undefined) terminal.cwd = event.cwd;
    if (event.output !== undefined) terminal.output = event.output;
    if (!event.exitStatus || !terminal.toolCallId) return [];
    const toolCallId = terminal.toolCallId;
    const call = this.calls.get(toolCallId);
    if (this.features.terminalMeta) {
      const exit = {
        terminal_exit: {
          terminal_id: event.terminalId,
          exit_code: event.exitStatus.exitCode,
          signal: event.exitStatus.signal,
        },
      };
      // It rides on the call's final update; a call that already ended gets it on its own.
      if (call && !FINAL.has(call.status)) {
        call.exit = exit;
        return [];
      }
      return [{ sessionUpdate: 'tool_call_update', toolCallId, _meta: exit }];
    }
    // The output so far, now: a call still running shows it in its final update anyway.
    clearTimeout(terminal.timer);
    terminal.timer = undefined;
    return call && FINAL.has(call.status) ? [this.contentSnapshot(toolCallId)] : [];
  }

  private terminalOutput(terminalId: string, data: string): SessionUpdate[] {
    const terminal = this.terminals.get(terminalId);
    if (!terminal?.toolCallId) return [];
    const toolCallId = terminal.toolCallId;
    if (this.features.terminalMeta) {
      return [
        {
          sessionUpdate: 'tool_call_update',
          toolCallId,
          _meta: { terminal_output: { terminal_id: terminalId, data } },
        },
      ];
    }
    terminal.output = keepTail(terminal.output + data, TERMINAL_TEXT_BYTES).text;
    terminal.timer ??= setTimeout(() => {
      terminal.timer = undefined;
      void this.write([this.contentSnapshot(toolCallId)]).catch((error: unknown) =>
        this.logger.log('debug', 'could not send terminal output', { error }),
      );
    }, STREAM_INTERVAL_MS);
    return [];
  }

  /** The tool call's content again, its terminals rendered with their latest output. */
  private contentSnapshot(toolCallId: string): SessionUpdate {
    const content = this.calls.get(toolCallId)?.content ?? [];
    return {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      content: v1ToolContent(content, this.renderTerminal),
    };
  }
}
