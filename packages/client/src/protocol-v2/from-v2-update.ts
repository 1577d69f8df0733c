/**
 * The v2 face, updates: a v2 `session/update` becomes the model's {@link AgentUpdate}s. v2 is the
 * shape the model follows, so this is mostly renaming; what it does beyond that: terminal output
 * arrives as base64 bytes and is decoded with one streaming UTF-8 decoder per terminal (a
 * character split across two chunks is decoded whole), a `diff` becomes one {@link FileChange}
 * per changed file with its section of the git patch, and a `state_update`'s background list
 * becomes the model's snapshot.
 */
import { TextDecoder } from 'node:util';
import { isUnknownVariant } from '@acp-kit/protocol';
import type {
  BackgroundWork as WireBackgroundWork,
  SessionUpdate,
  ToolCallContent as WireToolCallContent,
  SessionConfigOption as WireConfigOption,
  ToolCallUpdate,
} from '@acp-kit/protocol/v2';
import type { AgentUpdate, BackgroundWork, MessageRole, ToolCallPatch } from '../model/agent-update.js';
import type {
  AvailableCommand,
  FileChange,
  PlanEntry,
  SessionConfigOption,
  ToolCallContent,
} from '../model/content.js';
import { isRecord } from '../util/json-file.js';
import { splitGitPatch } from './git-patch.js';

/**
 * Translates one session's v2 updates. Stateful: it holds the UTF-8 decoders of the session's
 * terminals, so one translator serves one session.
 *
 * @example
 * const translate = new V2UpdateTranslator();
 * session.handleUpdate(translate.update(params.update));
 */
export class V2UpdateTranslator {
  private readonly decoders = new Map<string, TextDecoder>();

  /** The model's updates for one v2 `session/update`. */
  update(update: SessionUpdate): AgentUpdate[] {
    const out = this.translate(update);
    const meta = (update as { _meta?: unknown })._meta;
    const first = out[0];
    if (first && first.kind !== 'tool_call' && isRecord(meta)) first.meta = meta;
    return out;
  }

  private translate(update: SessionUpdate): AgentUpdate[] {
    if (isUnknownVariant(update)) return [unknown(update, String(update.sessionUpdate))];
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk':
        return [
          {
            kind: 'message_chunk',
            role: roleOf(update.sessionUpdate),
            messageId: update.messageId,
            content: update.content,
          },
        ];
      case 'user_message':
      case 'agent_message':
      case 'agent_thought':
        return [
          {
            kind: 'message',
            role: roleOf(update.sessionUpdate),
            messageId: update.messageId,
            content: update.content ?? [],
          },
        ];
      case 'state_update':
        return [foreground(update)];
      case 'tool_call_update':
        return [
          {
            kind: 'tool_call',
            toolCallId: update.toolCallId,
            newInstance: false,
            patch: toolCallPatch(update),
          },
        ];
      case 'tool_call_content_chunk':
        return toolCallContent([update.content]).map((content) => ({
          kind: 'tool_call_chunk',
          toolCallId: update.toolCallId,
          content,
        }));
      case 'terminal_update': {
        const terminal: Extract<AgentUpdate, { kind: 'terminal' }> = {
          kind: 'terminal',
          terminalId: update.terminalId,
          owner: 'agent',
          // v2 ends every terminal with a final `terminal_update` (its exit status).
          reportsExit: true,
        };
        if (typeof update.command === 'string') terminal.command = update.command;
        if (typeof update.cwd === 'string') terminal.cwd = update.cwd;
        if (update.output) {
          // A replacement snapshot: decoding starts afresh.
          this.decoders.delete(update.terminalId);
          terminal.output = this.decode(update.terminalId, update.output.data);
        }
        if (update.exitStatus)
          terminal.exitStatus = {
            exitCode: update.exitStatus.exitCode ?? null,
            signal: update.exitStatus.signal ?? null,
          };
        if (update.capabilities !== undefined)
          terminal.capabilities = { cancel: update.capabilities?.cancel != null };
        // An exited terminal's decoder gives up the bytes it held (a cut-off character, as U+FFFD).
        const rest = update.exitStatus ? this.finish(update.terminalId) : '';
        if (rest === '') return [terminal];
        if (terminal.output !== undefined) return [{ ...terminal, output: terminal.output + rest }];
        return [{ kind: 'terminal_output', terminalId: update.terminalId, data: rest }, terminal];
      }
      case 'terminal_output_chunk':
        return [
          {
            kind: 'terminal_output',
            terminalId: update.terminalId,
            data: this.decode(update.terminalId, update.data),
          },
        ];
      case 'plan_update': {
        const plan = update.plan;
        if (isUnknownVariant(plan)) return [unknown(update, `plan_update:${String(plan.type)}`)];
        // v2 adds the entry status `cancelled`: the model keeps statuses as sent (views know `cancelled`).
        return [{ kind: 'plan', planId: plan.planId, entries: plan.entries as unknown as PlanEntry[] }];
      }
      case 'available_commands_update':
        // v2 command inputs may be of a kind v1 lacks; they are kept as sent, read like v1's by `hint`.
        return [{ kind: 'commands', commands: update.availableCommands as unknown as AvailableCommand[] }];
      case 'config_option_update':
        return [{ kind: 'config_options', configOptions: update.configOptions.map(configOption) }];
      case 'session_info_update':
        return [
          {
            kind: 'session_info',
            ...(update.title !== undefined ? { title: update.title } : {}),
            ...(update.updatedAt !== undefined ? { updatedAt: update.updatedAt } : {}),
          },
        ];
      case 'usage_update':
        return [
          {
            kind: 'usage',
            used: update.used,
            size: update.size,
            ...(update.cost !== undefined ? { cost: update.cost } : {}),
          },
        ];
      case 'notice':
        return [
          {
            kind: 'notice',
            severity: String(update.severity),
            title: update.title,
            ...(update.description ? { description: update.description } : {}),
          },
        ];
      case 'compaction_update':
        return [
          {
            kind: 'compaction',
            compactionId: update.compactionId,
            status: String(update.status),
            ...(update.summary ? { summary: update.summary } : {}),
            ...(update.error ? { error: update.error } : {}),
          },
        ];
      case 'compaction_summary_chunk':
        return [{ kind: 'compaction_chunk', compactionId: update.compactionId, content: update.content }];
      default:
        return [unknown(update, String((update as { sessionUpdate: unknown }).sessionUpdate))];
    }
  }

  /** Base64 bytes of a terminal as text, continuing that terminal's UTF-8 stream. */
  private decode(terminalId: string, base64: string): string {
    let decoder = this.decoders.get(terminalId);
    if (!decoder) {
      decoder = new TextDecoder('utf-8');
      this.decoders.set(terminalId, decoder);
    }
    return decoder.decode(Buffer.from(base64, 'base64'), { stream: true });
  }

  /** Ends a terminal's UTF-8 stream: what its decoder still held. */
  private finish(terminalId: string): string {
    const rest = this.decoders.get(terminalId)?.decode() ?? '';
    this.decoders.delete(terminalId);
    return rest;
  }
}

function roleOf(kind: string): MessageRole {
  return kind.startsWith('user') ? 'user' : kind.startsWith('agent_thought') ? 'thought' : 'agent';
}

function unknown(raw: unknown, updateKind: string): AgentUpdate {
  return { kind: 'unknown', version: 2, updateKind, raw };
}

function foreground(update: Extract<SessionUpdate, { sessionUpdate: 'state_update' }>): AgentUpdate {
  if (isUnknownVariant(update)) return unknown(update, `state_update:${String(update.state)}`);
  const state = update.state;
  const out: Extract<AgentUpdate, { kind: 'foreground' }> = { kind: 'foreground', state };
  if (update.background) out.background = background(update.background);
  if (state === 'idle') {
    const stopReason = (update as { stopReason?: unknown }).stopReason;
    if (typeof stopReason === 'string') out.stopReason = stopReason;
    const error = (update as { error?: unknown }).error;
    if (isRecord(error) && typeof error.code === 'number' && typeof error.message === 'string')
      out.error = {
        code: error.code,
        message: error.message,
        ...(error.data !== undefined ? { data: error.data } : {}),
      };
  }
  return out;
}

function background(work: readonly WireBackgroundWork[]): BackgroundWork {
  const terminalIds: string[] = [];
  const toolCallIds: string[] = [];
  const other: string[] = [];
  for (const item of work) {
    if (isUnknownVariant(item)) other.push(String(item.type));
    else if (item.type === 'terminal') terminalIds.push(item.terminalId);
    else toolCallIds.push(item.toolCallId);
  }
  return { terminalIds, toolCallIds, other };
}

function toolCallPatch(update: ToolCallUpdate): ToolCallPatch {
  const patch: ToolCallPatch = {};
  if (update.title !== undefined) patch.title = update.title;
  if (update.kind !== undefined) patch.kind = update.kind === null ? null : String(update.kind);
  if (update.status !== undefined) patch.status = update.status === null ? null : String(update.status);
  if (update.content !== undefined)
    patch.content = update.content === null ? null : toolCallContent(update.content);
  if (update.locations !== undefined) patch.locations = update.locations;
  if (update.rawInput !== undefined) patch.rawInput = update.rawInput;
  if (update.rawOutput !== undefined) patch.rawOutput = update.rawOutput;
  if (update.name !== undefined) patch.name = update.name;
  if (update.capabilities !== undefined)
    patch.capabilities = update.capabilities === null ? null : { cancel: update.capabilities.cancel != null };
  if (isRecord(update._meta)) patch.meta = update._meta;
  return patch;
}

/** v2 tool call content as the model's: a diff becomes one file change per changed file. */
function toolCallContent(content: readonly WireToolCallContent[]): ToolCallContent[] {
  const out: ToolCallContent[] = [];
  for (const item of content) {
    if (isUnknownVariant(item) || item.type !== 'diff') {
      // Content blocks and terminal references have the same shape in both versions.
      out.push(item as ToolCallContent);
      continue;
    }
    const sections = item.patch ? splitGitPatch(item.patch.text) : [];
    for (const change of item.changes) {
      const path = (change as { path?: unknown }).path;
      // A change of an operation this client does not know, without a path, cannot be shown.
      if (typeof path !== 'string') continue;
      const file: FileChange = { type: 'file_change', path, operation: String(change.operation) };
      const oldPath = (change as { oldPath?: unknown }).oldPath;
      if (typeof oldPath === 'string') file.oldPath = oldPath;
      if (change.fileType) file.fileType = String(change.fileType);
      const section = sections.find((s) => s.matches(file.path, file.oldPath));
      if (section) file.patch = section.text;
      out.push(file);
    }
  }
  return out;
}

/** A v2 config option as the model's: v2 names its id `configId`, the model (like v1) `id`. */
export function configOption(option: WireConfigOption): SessionConfigOption {
  const { configId, ...rest } = option as WireConfigOption & { configId: string };
  return { ...rest, id: configId } as unknown as SessionConfigOption;
}
