/**
 * The v2 face, turns: a v2 prompt is answered when the user message is inserted, and the turn ends
 * with the `state_update` that reports the foreground `idle`, carrying the stop reason. This keeps
 * one waiting turn per session and settles it from the session's foreground updates.
 */
import { ProtocolError, type AcpKitError, type StopReason } from '@acp-kit/protocol';
import type { AgentUpdate } from '../model/agent-update.js';

type Foreground = Extract<AgentUpdate, { kind: 'foreground' }>;

interface Waiting {
  /** The prompt was answered (the message is inserted): the next `idle` is this turn's end. */
  answered: boolean;
  /** A `running`/`requires_action` arrived since the prompt was sent. */
  busy: boolean;
  /** The id of the prompt's user message (the answer's, or the first user message seen). */
  echoId?: string;
  resolve(stopReason: StopReason): void;
  reject(error: unknown): void;
}

/** The running turns of a v2 connection, by agent session id. */
export class V2Turns {
  private readonly waiting = new Map<string, Waiting>();

  /** Registers a turn before its prompt is sent (updates may arrive before the answer). */
  begin(sessionId: string): {
    promise: Promise<StopReason>;
    answered(messageId: string): void;
    abandon(): void;
  } {
    let waiting!: Waiting;
    const promise = new Promise<StopReason>((resolve, reject) => {
      waiting = { answered: false, busy: false, resolve, reject };
    });
    this.waiting.set(sessionId, waiting);
    const mine = (): boolean => this.waiting.get(sessionId) === waiting;
    return {
      promise,
      answered: (messageId) => {
        waiting.answered = true;
        waiting.echoId ??= messageId;
      },
      abandon: () => {
        if (mine()) this.waiting.delete(sessionId);
      },
    };
  }

  /**
   * A foreground state of `sessionId`, once the session applied it. An `idle` before the prompt
   * was answered and without a `running` since it was sent is the end of earlier work (background
   * work ending while the prompt was on its way), unless it carries a stop reason.
   */
  foreground(sessionId: string, update: Foreground): void {
    const waiting = this.waiting.get(sessionId);
    if (!waiting) return;
    if (update.state !== 'idle') {
      waiting.busy = true;
      return;
    }
    if (!waiting.answered && !waiting.busy && update.stopReason === undefined) return;
    this.waiting.delete(sessionId);
    if (update.stopReason === 'error') {
      const error = update.error ?? { code: -32603, message: 'the turn failed' };
      waiting.reject(new ProtocolError(error.code, error.message, error.data));
      return;
    }
    waiting.resolve((update.stopReason ?? 'end_turn') as StopReason);
  }

  /**
   * Whether a user message of `sessionId` is the agent's echo of the prompt being sent (v2 agents
   * send the user message they inserted): the session shows the prompt already.
   */
  isEcho(sessionId: string, messageId: string): boolean {
    const waiting = this.waiting.get(sessionId);
    if (!waiting) return false;
    waiting.echoId ??= messageId;
    return waiting.echoId === messageId;
  }

  /** The connection closed: every waiting turn fails with its reason. */
  closeAll(reason: AcpKitError): void {
    for (const waiting of this.waiting.values()) waiting.reject(reason);
    this.waiting.clear();
  }
}
