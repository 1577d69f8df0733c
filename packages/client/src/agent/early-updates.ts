/**
 * Small bookkeeping of a connection: updates that arrive before their session is registered, and
 * diagnostics reported once per kind.
 */
import type { ValidationReport } from '@acp-kit/protocol';
import type { AgentUpdate } from '../model/agent-update.js';

/**
 * Updates (translated by the face) for sessions not registered yet: the agent may stream them
 * right after its `session/new` answer, before the caller got the session id. Bounded.
 */
export class EarlyUpdates {
  private readonly held = new Map<string, AgentUpdate[][]>();

  hold(sessionId: string, updates: AgentUpdate[]): void {
    let list = this.held.get(sessionId);
    if (!list) {
      if (this.held.size >= 16) this.held.delete(this.held.keys().next().value as string);
      list = [];
      this.held.set(sessionId, list);
    }
    if (list.length < 10_000) list.push(updates);
  }

  /** Removes and returns what was held for `sessionId`, one entry per wire update. */
  take(sessionId: string): AgentUpdate[][] {
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
