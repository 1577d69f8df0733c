/**
 * `acp run --format json`: one object per line on stdout, the same schema whatever protocol
 * version the agent speaks (docs/run-json.md). Session content comes from the client engine's
 * version-neutral model: an `update` line carries the `AgentUpdate` the session folded, never a
 * wire object of one version. The last line is always `result`.
 */
import {
  stringifyJson,
  toErrorInfo,
  type AgentConnection,
  type AgentUpdate,
  type AttachMode,
  type ClientSession,
  type SessionEvent,
  ClientError,
} from '@acp-kit/client';
import { errorReport } from '../errors.js';
import { outputValue } from './permission-text.js';
import type { RunOutput } from './run-output.js';
import type { RunRenderer } from './run-render.js';

/**
 * The version of this event schema, on the `session` line. 1 (before it had this field): `update`
 * held the ACP v1 `session/update` object as received; 2: the neutral {@link AgentUpdate}.
 */
export const RUN_JSON_FORMAT = 2;

/** An `update` line: one change to the session, in the client's model. */
export interface RunJsonUpdate {
  type: 'update';
  /** The agent's session id. */
  sessionId: string;
  update: AgentUpdate;
  /** Part of the history an agent replays when a session is loaded. */
  replay?: true;
}

/** Updates kept while the session is not attached yet (printed right after the `session` line). */
const MAX_EARLY_UPDATES = 10_000;

/** One JSON object per line. */
export class JsonRenderer implements RunRenderer {
  private sessionId: string | undefined;
  private localId: string | undefined;
  private isAttached = false;
  /** The result line is written: it is the last (a v2 agent's background work ending as the session closes prints nothing after it). */
  private done = false;
  private early: { update: AgentUpdate; replay: boolean }[] = [];
  private readonly watched = new WeakSet<ClientSession>();

  constructor(readonly output: RunOutput) {}

  connected(connection: AgentConnection): void {
    connection.events.on('noise', ({ sample }) =>
      this.line({ type: 'warning', message: 'the agent printed non-JSON text on stdout', sample }),
    );
    connection.events.on('signInOutput', ({ text }) => this.line({ type: 'sign_in_output', text }));
    connection.events.on('diagnostic', ({ message }) => this.line({ type: 'diagnostic', message }));
  }

  opening(session: ClientSession): void {
    if (this.watched.has(session)) return;
    this.watched.add(session);
    session.store.onEvent((event) => this.onEvent(session, event));
  }

  attached(session: ClientSession, how: AttachMode, agentId: string): void {
    this.opening(session);
    this.isAttached = true;
    this.sessionId = session.agentSessionId;
    this.localId = session.localId;
    this.line({
      type: 'session',
      format: RUN_JSON_FORMAT,
      sessionId: this.sessionId,
      localId: session.localId,
      agent: agentId,
      how,
    });
    for (const { update, replay } of this.early.splice(0)) this.updateLine(update, replay);
  }

  info(text: string): void {
    this.line({ type: 'info', message: text });
  }

  error(error: unknown, exitCode: number): void {
    const info = toErrorInfo(error);
    const extra =
      error instanceof ClientError && error.code === 'AUTH_REQUIRED'
        ? { authOptions: error.details.authOptions }
        : {};
    this.line({
      type: 'error',
      ...info,
      exitCode,
      hint: errorReport(error, { command: 'run' }).hint,
      ...extra,
    });
  }

  result(stopReason: string | null, exitCode: number): void {
    this.line({
      type: 'result',
      stopReason,
      exitCode,
      ...(this.sessionId ? { sessionId: this.sessionId } : {}),
      ...(this.localId ? { localId: this.localId } : {}),
    });
    this.done = true;
  }

  private onEvent(session: ClientSession, event: SessionEvent): void {
    if (event.type === 'update') {
      if (this.isAttached) this.updateLine(event.update, event.replay === true);
      else if (this.early.length < MAX_EARLY_UPDATES)
        this.early.push({ update: event.update, replay: event.replay === true });
    } else if (event.type === 'permission_resolved') {
      this.permissionLine(session, event);
    } else if (event.type === 'stalled') {
      this.line({ type: 'stall', silentMs: event.silentMs });
    }
  }

  private updateLine(update: AgentUpdate, replay: boolean): void {
    const line: RunJsonUpdate = { type: 'update', sessionId: this.sessionId ?? '', update };
    if (replay) line.replay = true;
    this.line(line);
  }

  private permissionLine(
    session: ClientSession,
    event: Extract<SessionEvent, { type: 'permission_resolved' }>,
  ) {
    const item = [...session.state.items].reverse().find((i) => i.kind === 'permission');
    const request = item?.kind === 'permission' ? item.request : undefined;
    this.line({
      type: 'permission',
      source: request?.source,
      kind: request?.kind,
      ...(request?.toolCallId ? { toolCallId: request.toolCallId } : {}),
      ...(request?.title ? { title: request.title } : {}),
      ...(request?.command ? { command: request.command } : {}),
      ...(request?.commandCwd !== undefined ? { commandCwd: request.commandCwd } : {}),
      ...(request?.env
        ? { env: request.env.map((variable) => ({ name: variable.name, value: outputValue(variable) })) }
        : {}),
      ...(request?.sensitiveEnv ? { sensitiveEnv: request.sensitiveEnv } : {}),
      paths: request?.paths ?? [],
      decision: event.decision,
      by: event.by,
      ...(event.reason ? { reason: event.reason } : {}),
      ...(event.outcome ? { outcome: event.outcome } : {}),
    });
  }

  private line(value: object): void {
    if (this.done) return;
    // Updates nested past JSON.stringify's depth limit are printed too, not dropped.
    this.output.out(`${terminalSafeJson(stringifyJson(value))}\n`);
  }
}

// JSON.stringify escapes C0 controls but leaves C1 controls, line separators and bidi controls raw.
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same JSON with the characters a terminal could act on written as `\uXXXX` escapes (same value). */
function terminalSafeJson(json: string): string {
  return json.replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
