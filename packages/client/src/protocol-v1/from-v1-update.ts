/**
 * The v1 face, updates: a v1 `session/update` becomes the model's {@link AgentUpdate}s. Nothing is
 * lost: fields the model has no place for stay in the tool call's `meta`, variants this client
 * does not know are kept raw, and the `_meta` terminal side channel of the Claude, Codex and pi
 * adapters (`terminal_info` / `terminal_output` / `terminal_exit`, snake_case fields) becomes
 * terminal upserts and output of the tool call the update is about.
 */
import { isUnknownVariant, type SessionUpdate, type ToolCallUpdate } from '@acp-kit/protocol';
import { V1_PLAN_ID, type AgentUpdate, type ToolCallPatch } from '../model/agent-update.js';
import { isRecord } from '../util/json-file.js';

/** The model's updates for one v1 `session/update` (several when `_meta` carries terminal data). */
export function fromV1Update(update: SessionUpdate): AgentUpdate[] {
  if (isUnknownVariant(update))
    return [{ kind: 'unknown', version: 1, updateKind: String(update.sessionUpdate), raw: update }];
  const out: AgentUpdate[] = [];
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const role =
        update.sessionUpdate === 'user_message_chunk'
          ? 'user'
          : update.sessionUpdate === 'agent_message_chunk'
            ? 'agent'
            : 'thought';
      const messageId = update.messageId ?? undefined;
      out.push({
        kind: 'message_chunk',
        role,
        ...(messageId !== undefined ? { messageId } : {}),
        content: update.content,
      });
      break;
    }
    case 'tool_call':
    case 'tool_call_update':
      out.push({
        kind: 'tool_call',
        toolCallId: update.toolCallId,
        newInstance: update.sessionUpdate === 'tool_call',
        patch: toolCallPatchFromV1(update),
      });
      break;
    case 'plan':
      out.push({ kind: 'plan', planId: V1_PLAN_ID, entries: update.entries });
      break;
    case 'available_commands_update':
      out.push({ kind: 'commands', commands: update.availableCommands });
      break;
    case 'current_mode_update':
      out.push({ kind: 'mode', currentModeId: update.currentModeId });
      break;
    case 'config_option_update':
      out.push({ kind: 'config_options', configOptions: update.configOptions });
      break;
    case 'session_info_update':
      out.push({
        kind: 'session_info',
        ...(update.title !== undefined ? { title: update.title } : {}),
        ...(update.updatedAt !== undefined ? { updatedAt: update.updatedAt } : {}),
      });
      break;
    case 'usage_update':
      out.push({
        kind: 'usage',
        used: (update.used as number | null | undefined) ?? null,
        size: update.size,
        ...(update.cost !== undefined ? { cost: update.cost } : {}),
      });
      break;
    case 'notice':
      out.push({
        kind: 'notice',
        severity: String(update.severity),
        title: update.title,
        ...(update.description ? { description: update.description } : {}),
      });
      break;
    case 'compaction_update':
      out.push({
        kind: 'compaction',
        compactionId: update.compactionId,
        status: String(update.status),
        ...(update.summary ? { summary: update.summary } : {}),
        ...(update.error ? { error: update.error } : {}),
      });
      break;
    case 'compaction_summary_chunk':
      out.push({ kind: 'compaction_chunk', compactionId: update.compactionId, content: update.content });
      break;
    default: {
      // Read back from a record, a newer kind is plain JSON, not the parser's unknown variant.
      const kind = String((update as { sessionUpdate: unknown }).sessionUpdate);
      out.push({ kind: 'unknown', version: 1, updateKind: kind, raw: update });
    }
  }
  const meta = (update as { _meta?: unknown })._meta;
  const first = out[0];
  if (first && first.kind !== 'tool_call' && isRecord(meta)) first.meta = meta;
  const toolCallId = (update as { toolCallId?: unknown }).toolCallId;
  terminalMeta(
    (update as { _meta?: unknown })._meta,
    typeof toolCallId === 'string' ? toolCallId : undefined,
    out,
  );
  return out;
}

/** A v1 tool call (or update, or a permission request's `toolCall`) as a model patch. */
export function toolCallPatchFromV1(update: Omit<ToolCallUpdate, 'toolCallId'>): ToolCallPatch {
  const patch: ToolCallPatch = {};
  if (update.title !== undefined) patch.title = update.title;
  if (update.kind !== undefined) patch.kind = update.kind === null ? null : String(update.kind);
  if (update.status !== undefined) patch.status = update.status === null ? null : String(update.status);
  if (update.content !== undefined) patch.content = update.content;
  if (update.locations !== undefined) patch.locations = update.locations;
  if (update.rawInput !== undefined) patch.rawInput = update.rawInput;
  if (update.rawOutput !== undefined) patch.rawOutput = update.rawOutput;
  if (update.name !== undefined) patch.name = update.name;
  if (isRecord(update._meta)) patch.meta = update._meta;
  return patch;
}

function terminalMeta(meta: unknown, toolCallId: string | undefined, out: AgentUpdate[]): void {
  if (!isRecord(meta)) return;
  const { terminal_info: info, terminal_output: output, terminal_exit: exit } = meta;
  const call = toolCallId !== undefined ? { toolCallId } : {};
  /** The terminal `part` is about, when it names one. */
  const idOf = (part: Record<string, unknown>): string | undefined =>
    typeof part.terminal_id === 'string' && part.terminal_id !== '' ? part.terminal_id : undefined;
  const upsert = (
    part: Record<string, unknown>,
    fields: Partial<Extract<AgentUpdate, { kind: 'terminal' }>>,
  ) => {
    const terminalId = idOf(part);
    if (terminalId !== undefined)
      out.push({ kind: 'terminal', terminalId, owner: 'agent', ...call, ...fields });
  };
  if (isRecord(info))
    upsert(info, {
      ...(typeof info.cwd === 'string' ? { cwd: info.cwd } : {}),
      ...(typeof info.command === 'string' ? { command: info.command } : {}),
    });
  if (isRecord(output) && typeof output.data === 'string') {
    const terminalId = idOf(output);
    if (terminalId !== undefined)
      out.push({ kind: 'terminal_output', terminalId, ...call, data: output.data });
  }
  if (isRecord(exit))
    upsert(exit, {
      exitStatus: {
        exitCode: typeof exit.exit_code === 'number' ? exit.exit_code : null,
        signal: typeof exit.signal === 'string' ? exit.signal : null,
      },
    });
}
