/**
 * Small bookkeeping of a connection: updates that arrive before their session is registered, and
 * diagnostics reported once per kind.
 */
import type { SessionNotification, ValidationReport } from '@acp-kit/protocol';

/**
 * `session/update`s for sessions not registered yet: the agent may stream them right after its
 * `session/new` answer, before the caller got the session id. Bounded.
 */
export class EarlyUpdates {
  private readonly held = new Map<string, SessionNotification[]>();

  hold(params: SessionNotification): void {
    let list = this.held.get(params.sessionId);
    if (!list) {
      if (this.held.size >= 16) this.held.delete(this.held.keys().next().value as string);
      list = [];
      this.held.set(params.sessionId, list);
    }
    if (list.length < 10_000) list.push(params);
  }

  /** Removes and returns what was held for `sessionId`. */
  take(sessionId: string): SessionNotification[] {
    const list = this.held.get(sessionId) ?? [];
    this.held.delete(sessionId);
    return list;
  }
}

/** Messages about what the agent sent that this client does not know, each reported once. */
export function diagnosticsOf(report: ValidationReport): string[] {
  const out = report.error
    ? [`rejected ${report.method} ${report.part}: ${report.error.path} ${report.error.message}`]
    : [];
  for (const d of report.diagnostics) {
    if (d.kind === 'unknown-variant' || d.kind === 'unknown-value')
      out.push(`${report.method}: ${d.message}`);
  }
  return out;
}
