/**
 * The engine's transcript items (`@acp-kit/client` session state) as the UI's view models.
 * Pure functions; agent-controlled text is passed through and sanitized by the components.
 */
import type { StopReason, ToolKind } from '@acp-kit/protocol';
import type {
  ErrorInfo,
  TerminalView as EngineTerminal,
  ToolCallItem,
  TranscriptItem as EngineItem,
} from '@acp-kit/client';
import { stopReasonNotice } from '../../components/message-segments.js';
import type { TerminalSnapshot, ToolCallView } from '../../view-model/tool-call.js';
import type { NoticeSeverity, TranscriptItem } from '../../view-model/transcript.js';

/** A tool call item as a card. */
export function toolCallView(item: ToolCallItem): ToolCallView {
  return {
    toolCallId: item.toolCallId,
    title: item.title,
    kind: item.toolKind as ToolKind,
    status: (item.clientStatus ?? item.status) as ToolCallView['status'],
    content: item.content,
    ...(item.diffPlacements ? { diffPlacements: item.diffPlacements } : {}),
    locations: item.locations,
    rawInput: item.rawInput,
    rawOutput: item.rawOutput,
  };
}

/** An engine terminal as shown in a card. */
export function terminalSnapshot(view: EngineTerminal): TerminalSnapshot {
  return {
    terminalId: view.terminalId,
    ...(view.command !== undefined ? { command: view.command } : {}),
    ...(view.cwd !== undefined ? { cwd: view.cwd } : {}),
    output: view.output,
    truncated: view.truncated,
    ...(view.exitStatus ? { exit: view.exitStatus } : {}),
    ...(view.released ? { released: true } : {}),
  };
}

/** Text for an error, with the exit code or signal of an agent that exited. */
export function describeErrorInfo(error: ErrorInfo): { text: string; detail?: string } {
  const how =
    error.signal != null
      ? ` (killed by ${error.signal})`
      : error.exitCode != null
        ? ` (exit code ${error.exitCode})`
        : '';
  const detail = error.stderrTail?.trim();
  // The engine's message may carry the stderr tail after its first line: it is shown apart.
  const first = error.message.split('\n')[0]?.trim() ?? '';
  const already = /\b(exit code|exited with code|signal)\b/i.test(first);
  return { text: `${first}${already ? '' : how}`, ...(detail ? { detail } : {}) };
}

function severityOf(value: string): NoticeSeverity {
  return value === 'error' ? 'error' : value === 'warning' || value === 'warn' ? 'warning' : 'info';
}

const ATTACH_WORDS = {
  new: 'new session',
  load: 'session loaded by the agent',
  resume: 'session resumed',
  continuity: 'continued from the transcript (the agent could not reopen it)',
} as const;

function notice(id: string, severity: NoticeSeverity, text: string, detail?: string): TranscriptItem {
  return { type: 'notice', id, notice: { id, severity, text, ...(detail ? { detail } : {}) } };
}

function permissionNotice(item: Extract<EngineItem, { kind: 'permission' }>): TranscriptItem | undefined {
  // Silent policy allows (reads inside the project, writes covered by an answered request) are noise.
  if (item.decision === 'allow' && (item.by === 'grant' || item.by === 'default')) return undefined;
  const what = item.request.title ?? item.request.command ?? item.request.paths[0] ?? item.request.kind;
  const by =
    item.by === 'user' ? 'by you' : item.by === 'cancel' ? 'turn cancelled' : (item.reason ?? item.by);
  if (item.decision === 'cancelled') return notice(item.key, 'warning', `⊘ Permission cancelled: ${what}`);
  return notice(
    item.key,
    item.decision === 'allow' ? 'info' : 'warning',
    `${item.decision === 'allow' ? 'Allowed' : 'Denied'}: ${what} (${by})`,
  );
}

/**
 * The view of one engine item, or undefined for items that show nothing (a normal end of turn,
 * silent policy decisions).
 */
export function itemView(item: EngineItem, streaming = false): TranscriptItem | undefined {
  switch (item.kind) {
    case 'message':
      return {
        type: 'message',
        id: item.key,
        message: {
          id: item.key,
          role: item.role,
          content: item.content,
          ...(streaming ? { streaming } : {}),
        },
      };
    case 'tool_call':
      return { type: 'tool_call', id: item.key, call: toolCallView(item) };
    case 'notice':
      return notice(item.key, severityOf(item.severity), item.title, item.description);
    case 'compaction': {
      const summary = item.summary
        .map((block) =>
          (block as { type?: unknown }).type === 'text' ? (block as { text: string }).text : '',
        )
        .join('');
      const status = item.error ? `failed: ${item.error}` : item.status;
      return notice(item.key, item.error ? 'warning' : 'info', `Context compaction (${status})`, summary);
    }
    case 'permission':
      return permissionNotice(item);
    case 'plan':
      return { type: 'plan', id: item.key, entries: item.entries };
    case 'stop': {
      const stopped = stopReasonNotice(item.stopReason as StopReason);
      return stopped ? notice(item.key, stopped.severity, stopped.text.replace(/^\S+ /, '')) : undefined;
    }
    case 'error': {
      const { text, detail } = describeErrorInfo(item.error);
      return notice(item.key, 'error', text, detail);
    }
    case 'attached':
      return notice(item.key, 'info', `Connected to ${item.agentId}: ${ATTACH_WORDS[item.how]}`);
    case 'info':
      return notice(item.key, 'info', item.text);
    case 'unknown': {
      const kind = (item.update as { sessionUpdate?: unknown } | null)?.sessionUpdate;
      return notice(item.key, 'info', `The agent sent an update this client does not know (${String(kind)})`);
    }
  }
}
