/**
 * The agent's events as v2 `session/update`s. The model follows v2's concepts, so this is mostly a
 * renaming: upserts stay upserts, terminals are `terminal_update`s with their output as base64
 * `terminal_output_chunk`s, the foreground state goes out as `state_update`s, a diff carries both
 * its changes and a `git_patch`, config options are keyed by `configId`.
 */
import type {
  AgentSideConnection,
  ContentBlock as WireBlock,
  DiffChange,
  SessionConfigOption,
  SessionUpdate,
  ToolCallContent,
  ToolCallUpdate,
} from '@acp-kit/protocol/v2';
import type { EventSink } from '../../core/client-port.js';
import type {
  AgentEvent,
  ConfigOption,
  MessageRole,
  StateEvent,
  TerminalEvent,
  ToolCallEvent,
  ToolContent,
} from '../../core/events.js';
import { sameInBoth } from '../shared.js';
import { gitPatch } from './git-patch.js';

const MESSAGE = { user: 'user_message', agent: 'agent_message', thought: 'agent_thought' } as const;
const CHUNK = {
  user: 'user_message_chunk',
  agent: 'agent_message_chunk',
  thought: 'agent_thought_chunk',
} as const satisfies Record<MessageRole, string>;

/** Model blocks are ACP blocks: the model declares the same shapes. */
const wireBlock = (block: unknown): WireBlock => block as WireBlock;
const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

export function v2ToolContent(items: readonly ToolContent[]): ToolCallContent[] {
  return items.map((item): ToolCallContent => {
    if (item.type === 'content') return { type: 'content', content: wireBlock(item.content) };
    if (item.type === 'terminal') return { type: 'terminal', terminalId: item.terminalId };
    return {
      type: 'diff',
      changes: item.files.map((file): DiffChange =>
        file.operation === 'move'
          ? { operation: 'move', oldPath: file.oldPath ?? file.path, path: file.path }
          : ({ operation: file.operation, path: file.path } as DiffChange),
      ),
      patch: { format: 'git_patch', text: item.files.map((file) => file.patch ?? gitPatch(file)).join('') },
    };
  });
}

/** The v2 upsert of a tool-call event (v2 has no separate "new call" update). */
export function v2ToolCall(event: Omit<ToolCallEvent, 'type'>): ToolCallUpdate {
  const update: ToolCallUpdate = { toolCallId: event.toolCallId };
  if (event.name !== undefined) update.name = event.name;
  if (event.title !== undefined) update.title = event.title;
  if (event.kind !== undefined) update.kind = event.kind;
  if (event.status !== undefined) update.status = event.status;
  if (event.content !== undefined)
    update.content = event.content === null ? null : v2ToolContent(event.content);
  if (event.locations !== undefined) update.locations = event.locations;
  if (event.rawInput !== undefined) update.rawInput = event.rawInput;
  if (event.rawOutput !== undefined) update.rawOutput = event.rawOutput;
  if (event.cancellable !== undefined) update.capabilities = event.cancellable ? { cancel: {} } : null;
  if (event.meta !== undefined) update._meta = event.meta;
  return update;
}

export function v2ConfigOptions(options: readonly ConfigOption[]): SessionConfigOption[] {
  return options.map(({ id, ...rest }) => ({ configId: id, ...rest }) as SessionConfigOption);
}

function terminalUpdate(event: TerminalEvent): SessionUpdate {
  const update: SessionUpdate = { sessionUpdate: 'terminal_update', terminalId: event.terminalId };
  if (event.command !== undefined) update.command = event.command;
  if (event.cwd !== undefined) update.cwd = event.cwd;
  if (event.output !== undefined) update.output = { data: base64(event.output) };
  if (event.exitStatus !== undefined) update.exitStatus = event.exitStatus;
  if (event.cancellable !== undefined) update.capabilities = event.cancellable ? { cancel: {} } : null;
  return update;
}

function stateUpdate(event: StateEvent): SessionUpdate {
  const background = event.background ? { background: event.background } : {};
  if (event.state !== 'idle')
    return { sessionUpdate: 'state_update', state: event.state, ...background } as SessionUpdate;
  if (event.stopReason === 'error') {
    return {
      sessionUpdate: 'state_update',
      state: 'idle',
      stopReason: 'error',
      error: event.error,
      ...background,
    };
  }
  return {
    sessionUpdate: 'state_update',
    state: 'idle',
    ...(event.stopReason ? { stopReason: event.stopReason } : {}),
    ...background,
  } as SessionUpdate;
}

/** One event as v2 updates (none for what a v2 client never sees: a v1 client's own terminals). */
export function v2Updates(event: AgentEvent): SessionUpdate[] {
  switch (event.type) {
    case 'message':
      return [
        {
          sessionUpdate: MESSAGE[event.role],
          messageId: event.messageId,
          content: event.content.map(wireBlock),
        } as SessionUpdate,
      ];
    case 'message_chunk':
      return [
        {
          sessionUpdate: CHUNK[event.role],
          messageId: event.messageId,
          content: wireBlock(event.content),
        } as SessionUpdate,
      ];
    case 'tool_call':
      return [{ sessionUpdate: 'tool_call_update', ...v2ToolCall(event) }];
    case 'tool_call_chunk':
      return [
        {
          sessionUpdate: 'tool_call_content_chunk',
          toolCallId: event.toolCallId,
          content: v2ToolContent([event.content])[0] as ToolCallContent,
        },
      ];
    case 'terminal':
      return event.owner === 'agent' ? [terminalUpdate(event)] : [];
    case 'terminal_output':
      return [
        { sessionUpdate: 'terminal_output_chunk', terminalId: event.terminalId, data: base64(event.data) },
      ];
    case 'plan':
      return [
        {
          sessionUpdate: 'plan_update',
          plan: { type: 'items', planId: event.planId, entries: event.entries },
        },
      ];
    case 'state':
      return [stateUpdate(event)];
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
            type: 'command',
            name: command.name,
            description: command.description,
            ...(command.inputHint ? { input: { type: 'text', hint: command.inputHint } } : {}),
          })),
        },
      ];
    case 'config_options':
      return [{ sessionUpdate: 'config_option_update', configOptions: v2ConfigOptions(event.options) }];
  }
}

/** One session's events into v2 updates: v2 says everything the model does, so it keeps no state. */
export class V2Sink implements EventSink {
  constructor(
    private readonly sessionId: string,
    private readonly connection: AgentSideConnection,
  ) {}

  accepts(): boolean {
    // Notices and compaction need no capability in v2.
    return true;
  }

  async send(event: AgentEvent): Promise<void> {
    const updates = v2Updates(event);
    // Handed to the connection at once, so they reach the wire in this order.
    await Promise.all(
      updates.map((update) => this.connection.sessionUpdate({ sessionId: this.sessionId, update })),
    );
  }

  async replay(events: readonly AgentEvent[]): Promise<void> {
    for (const event of events) await this.send(event);
  }
}
