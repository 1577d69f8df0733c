/**
 * What the drivers saw: the answers to each step, and the frame log. Checks are pure judgements
 * over this record, so that `--only`/`--skip` decide which steps run and a check never drives.
 */
import type { Answer, FrameLog } from './wire/peer.js';
import type { JsonObject, ObservedFrame } from './types.js';

/** A step: the request we sent (time `t`) and how it ended. */
export interface Step {
  t: number;
  sent: JsonObject;
  answer: Answer;
}

/** One prompt turn (v1: the response ends it; v2: the `idle` state does). */
export interface TurnRecord {
  conn: string;
  sessionId: string;
  prompt: Step;
  /** When the turn's window closed: the next step on the connection started. */
  closedT: number;
  /** v1 cancel turns: when `session/cancel` went out, and whether a permission request was pending. */
  cancelT?: number;
  permissionPending?: boolean;
  /** v2: the `state_update` that ended the turn, if one came. */
  idle?: ObservedFrame;
}

export interface Observations {
  log: FrameLog;
  offline: boolean;
  cwd: string;
  /** A remote target: its transport carries `initialize` first, nothing may come before it. */
  remote: boolean;
  /** Above this, `timing.initialize` warns (ms). */
  slowInitializeMs: number;
  /** Above this, `timing.first-update` warns (ms). */
  slowFirstUpdateMs: number;
  /** Why turns did not run (`--offline`, no session…), when they did not. */
  turnsSkipped?: string;
  /** The version each connection speaks (from its `initialize` answer). */
  versions: Map<string, 1 | 2>;
  /** How a connection ended before we closed it, when it did (evidence: the stderr tail). */
  crashes: Map<string, string>;
  preInit?: Step;
  initialize?: Step;
  unknownMethod?: Step;
  /** The request sent right after the unknown notification: the agent must still answer. */
  afterUnknownNotification?: Step;
  invalidParams?: Step;
  newSession?: Step;
  list?: Step;
  resume?: Step;
  close?: Step;
  load?: Step & { sessionId: string };
  turn?: TurnRecord;
  cancel?: TurnRecord;
  v2Initialize?: Step;
  v2Turn?: TurnRecord;
}

/** The result object of a response, when the step got one. */
export function resultOf(step: Step | undefined): JsonObject | undefined {
  if (step?.answer.kind !== 'response') return undefined;
  const { result } = step.answer.frame;
  return typeof result === 'object' && result !== null && !Array.isArray(result)
    ? (result as JsonObject)
    : undefined;
}

/** The error object of a response, when the step got one. */
export function errorOf(step: Step | undefined): JsonObject | undefined {
  if (step?.answer.kind !== 'response') return undefined;
  const { error } = step.answer.frame;
  return typeof error === 'object' && error !== null && !Array.isArray(error)
    ? (error as JsonObject)
    : undefined;
}

/** The agent's `session/update`s for `sessionId` on `conn` with `from <= t < to`. */
export function updatesBetween(
  obs: Observations,
  conn: string,
  sessionId: string,
  from: number,
  to: number,
): ObservedFrame[] {
  return obs.log.frames.filter((f) => {
    if (f.dir !== 'in' || f.conn !== conn || f.frame.method !== 'session/update' || f.t < from || f.t >= to) {
      return false;
    }
    const params = f.frame.params as JsonObject | undefined;
    return params?.sessionId === sessionId;
  });
}

/** The `update` object of a `session/update` frame. */
export function updateOf(frame: ObservedFrame): JsonObject {
  const params = frame.frame.params as JsonObject | undefined;
  const update = params?.update;
  return typeof update === 'object' && update !== null ? (update as JsonObject) : {};
}
