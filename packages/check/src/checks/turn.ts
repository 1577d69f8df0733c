/**
 * A prompt turn (v1): answered with a stop reason after its updates, tool calls with a sound
 * lifecycle and unique ids, and the time to the first update.
 */
import {
  errorOf,
  resultOf,
  updateOf,
  updatesBetween,
  type Observations,
  type TurnRecord,
} from '../observations.js';
import { TURN_UPDATE_KINDS } from '../drive/turns.js';
import {
  SCHEMA_V1,
  SPEC,
  flag,
  noResponse,
  notApplicable,
  pass,
  type Check,
  type Judgement,
} from './check.js';

const PROMPT_TURN = `${SPEC}/prompt-turn`;
const STOP_REASONS = new Set(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']);
/** Above this, `timing.first-update` warns: the user sees nothing until then. */
export const SLOW_FIRST_UPDATE_MS = 30_000;

function skipped(obs: Observations): Judgement | undefined {
  if (obs.turnsSkipped) return notApplicable(obs.turnsSkipped);
  if (!obs.turn) return notApplicable('no turn ran');
  return undefined;
}

/** A turn-content update after the turn's answer (and its settle time) belongs to no turn. */
export function lateUpdate(obs: Observations, turn: TurnRecord): Judgement | undefined {
  if (turn.prompt.answer.kind !== 'response') return undefined;
  const late = updatesBetween(obs, turn.conn, turn.sessionId, turn.prompt.answer.t, turn.closedT).find(
    (frame) => TURN_UPDATE_KINDS.has(String(updateOf(frame).sessionUpdate)),
  );
  return late ? flag('fail', 'a turn update arrived after the prompt was answered', late) : undefined;
}

const promptTurn: Check = {
  name: 'turn.prompt',
  title: 'prompt turn: updates, then the stop reason',
  rule: {
    text: 'MUST send every update of a turn before answering session/prompt with a stopReason (costs one short model turn)',
    url: PROMPT_TURN,
  },
  needs: ['v1', 'turns'],
  judge(obs) {
    const skip = skipped(obs);
    if (skip) return skip;
    const turn = obs.turn as TurnRecord;
    const missing = noResponse(turn.prompt, obs);
    if (missing) return flag('fail', `session/prompt: ${missing}`, turn.prompt);
    if (errorOf(turn.prompt)) return flag('fail', 'the prompt was answered with an error', turn.prompt);
    const reason = resultOf(turn.prompt)?.stopReason;
    if (!STOP_REASONS.has(String(reason)))
      return flag('fail', `stopReason ${JSON.stringify(reason)}`, turn.prompt);
    const late = lateUpdate(obs, turn);
    if (late) return late;
    const end = turn.prompt.answer.kind === 'response' ? turn.prompt.answer.t : turn.closedT;
    const updates = updatesBetween(obs, turn.conn, turn.sessionId, turn.prompt.t, end).length;
    if (updates === 0) return flag('warn', 'the turn ended without a single update', turn.prompt);
    return pass(`${updates} update(s), then stopReason ${String(reason)}`, { updates });
  },
};

const toolCallLifecycle: Check = {
  name: 'turn.tool-calls',
  title: 'tool-call lifecycle',
  rule: {
    text: 'a tool_call announces each call before its tool_call_updates; every call ends completed or failed by the end of the turn',
    url: `${SPEC}/tool-calls`,
  },
  needs: ['v1', 'turns'],
  judge(obs) {
    const skip = skipped(obs);
    if (skip) return skip;
    const turn = obs.turn as TurnRecord;
    const end = turn.prompt.answer.kind === 'response' ? turn.prompt.answer.t : turn.closedT;
    const status = new Map<string, string>();
    for (const frame of updatesBetween(obs, turn.conn, turn.sessionId, turn.prompt.t, end)) {
      const update = updateOf(frame);
      const id = String(update.toolCallId);
      if (update.sessionUpdate === 'tool_call') status.set(id, String(update.status ?? 'pending'));
      else if (update.sessionUpdate === 'tool_call_update') {
        const before = status.get(id);
        if (before === undefined) return flag('fail', `tool_call_update for unannounced call ${id}`, frame);
        if (
          (before === 'completed' || before === 'failed') &&
          update.status !== undefined &&
          update.status !== before
        ) {
          return flag('fail', `call ${id} went from ${before} to ${String(update.status)}`, frame);
        }
        if (update.status !== undefined && update.status !== null) status.set(id, String(update.status));
      }
    }
    if (status.size === 0) return notApplicable('the turn made no tool call');
    for (const [id, last] of status) {
      if (last !== 'completed' && last !== 'failed') {
        return flag('fail', `call ${id} still ${last} when the turn ended`, turn.prompt);
      }
    }
    return pass(`${status.size} tool call(s), each announced and finished`, { toolCalls: status.size });
  },
};

const toolCallIds: Check = {
  name: 'turn.tool-call-ids',
  title: 'tool-call ids unique in a session',
  rule: {
    text: 'toolCallId is unique within a session: a new tool_call never reuses one',
    url: `${SCHEMA_V1}/ToolCallId`,
  },
  needs: ['v1', 'turns'],
  judge(obs) {
    const skip = skipped(obs);
    if (skip) return skip;
    const seen = new Set<string>();
    // Only the turns: a session/load replay announces the same calls again, as it should.
    for (const turn of [obs.turn, obs.cancel]) {
      if (!turn) continue;
      for (const frame of updatesBetween(obs, turn.conn, turn.sessionId, turn.prompt.t, turn.closedT)) {
        const update = updateOf(frame);
        if (update.sessionUpdate !== 'tool_call') continue;
        const key = `${turn.sessionId} ${String(update.toolCallId)}`;
        if (seen.has(key))
          return flag('fail', `tool_call ${String(update.toolCallId)} announced twice`, frame);
        seen.add(key);
      }
    }
    if (seen.size === 0) return notApplicable('no tool call');
    return pass(`${seen.size} distinct tool call id(s)`);
  },
};

const firstUpdateTiming: Check = {
  name: 'timing.first-update',
  title: 'first update of a turn',
  rule: {
    text: `SHOULD show progress soon after a prompt (warned above ${SLOW_FIRST_UPDATE_MS} ms)`,
    url: PROMPT_TURN,
  },
  needs: ['v1', 'turns'],
  judge(obs) {
    const skip = skipped(obs);
    if (skip) return skip;
    const turn = obs.turn as TurnRecord;
    const first = updatesBetween(obs, turn.conn, turn.sessionId, turn.prompt.t, turn.closedT).find((frame) =>
      TURN_UPDATE_KINDS.has(String(updateOf(frame).sessionUpdate)),
    );
    if (!first) return notApplicable('the turn sent no update');
    const ms = Math.round(first.t - turn.prompt.t);
    if (ms > obs.slowFirstUpdateMs)
      return flag('warn', `first update after ${ms} ms`, first, { firstUpdateMs: ms });
    return pass(`first update after ${ms} ms`, { firstUpdateMs: ms });
  },
};

export const TURN_CHECKS: readonly Check[] = [promptTurn, toolCallLifecycle, toolCallIds, firstUpdateTiming];
