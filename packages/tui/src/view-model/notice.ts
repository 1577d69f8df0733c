/**
 * What the transcript says outside the conversation: an agent's notice, how a turn ended, an
 * error, a permission decision, a compaction… — the text a transcript item other than a message,
 * a tool call or a plan shows, if any.
 */
import type { ErrorInfo, TranscriptItem } from '@acp-kit/client';
import type { StopReason } from '@acp-kit/protocol';
import { stopReasonNotice } from '../components/message-segments.js';

/** Severity of a notice. */
export type NoticeSeverity = 'info' | 'warning' | 'error';

/** A notice as drawn: one line of text and optional extra lines (such as the agent's last stderr lines). */
export interface Notice {
  readonly severity: NoticeSeverity;
  readonly text: string;
  readonly detail?: string;
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
  const already = /\b(exit code|exited with code|signal|killed by)\b/i.test(first);
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

function notice(severity: NoticeSeverity, text: string, detail?: string): Notice {
  return { severity, text, ...(detail ? { detail } : {}) };
}

function permissionNotice(item: Extract<TranscriptItem, { kind: 'permission' }>): Notice | undefined {
  // Silent policy allows (reads inside the project, writes covered by an answered request) are noise.
  if (item.decision === 'allow' && (item.by === 'grant' || item.by === 'default')) return undefined;
  const what = item.request.title ?? item.request.command ?? item.request.paths[0] ?? item.request.kind;
  const by =
    item.by === 'user' ? 'by you' : item.by === 'cancel' ? 'turn cancelled' : (item.reason ?? item.by);
  if (item.decision === 'cancelled') return notice('warning', `⊘ Permission cancelled: ${what}`);
  return notice(
    item.decision === 'allow' ? 'info' : 'warning',
    `${item.decision === 'allow' ? 'Allowed' : 'Denied'}: ${what} (${by})`,
  );
}

/**
 * The notice a transcript item shows; undefined for messages, tool calls and plans (drawn by
 * their own components) and for items that show nothing (a normal end of turn, silent policy
 * decisions).
 *
 * @example
 * noticeOf({ kind: 'stop', key: '4', turn: 1, stopReason: 'refusal' });
 * // { severity: 'error', text: 'The agent refused to continue this request.' }
 */
export function noticeOf(item: TranscriptItem): Notice | undefined {
  switch (item.kind) {
    case 'message':
    case 'tool_call':
    case 'plan':
      return undefined;
    case 'notice':
      return notice(severityOf(item.severity), item.title, item.description);
    case 'compaction': {
      const summary = item.summary
        .map((block) =>
          (block as { type?: unknown }).type === 'text' ? (block as { text: string }).text : '',
        )
        .join('');
      const status = item.error ? `failed: ${item.error}` : item.status;
      return notice(item.error ? 'warning' : 'info', `Context compaction (${status})`, summary);
    }
    case 'permission':
      return permissionNotice(item);
    case 'stop': {
      const stopped = stopReasonNotice(item.stopReason as StopReason);
      return stopped ? notice(stopped.severity, stopped.text.replace(/^\S+ /, '')) : undefined;
    }
    case 'error': {
      const { text, detail } = describeErrorInfo(item.error);
      return notice('error', text, detail);
    }
    case 'attached':
      return notice('info', `Connected to ${item.agentId}: ${ATTACH_WORDS[item.how]}`);
    case 'info':
      return notice('info', item.text);
    case 'unknown': {
      return notice('info', `The agent sent an update this client does not know (${item.updateKind})`);
    }
  }
}
