/**
 * The v2 turn: `session/prompt` answered `{messageId}` once the message is in, the turn's
 * progress and end as `state_update`s (`running` … `idle` with a stop reason).
 */
import { errorOf, resultOf, updateOf, updatesBetween } from '../observations.js';
import { justAfter } from '../wire/peer.js';
import { SCHEMA_V2, flag, noResponse, notApplicable, pass, type Check } from './check.js';

const v2Turn: Check = {
  name: 'v2.turn',
  title: 'v2 turn: messageId, running → idle',
  rule: {
    text: 'v2: session/prompt answers {messageId}; the turn reports state_update running, then idle with a stopReason (costs one short model turn)',
    url: `${SCHEMA_V2}/StateUpdate`,
  },
  needs: ['v2', 'v2turn'],
  judge(obs) {
    if (obs.offline) return notApplicable('--offline');
    if (resultOf(obs.v2Initialize)?.protocolVersion !== 2)
      return notApplicable('the agent does not speak v2');
    const turn = obs.v2Turn;
    if (!turn) return notApplicable('no v2 session opened');
    const missing = noResponse(turn.prompt, obs, 'v2');
    if (missing) return flag('fail', `session/prompt (v2): ${missing}`, turn.prompt);
    if (errorOf(turn.prompt)) return flag('fail', 'the v2 prompt was answered with an error', turn.prompt);
    if (typeof resultOf(turn.prompt)?.messageId !== 'string')
      return flag('fail', 'no messageId in the answer', turn.prompt);
    if (!turn.idle) return flag('fail', 'no state_update idle ended the turn', turn.prompt);
    const updates = updatesBetween(obs, turn.conn, turn.sessionId, turn.prompt.t, justAfter(turn.idle.t));
    const running = updates.find(
      (f) => updateOf(f).sessionUpdate === 'state_update' && updateOf(f).state === 'running',
    );
    if (!running) return flag('fail', 'idle without a running state before it', turn.idle);
    if (typeof updateOf(turn.idle).stopReason !== 'string')
      return flag('fail', 'idle without a stopReason', turn.idle);
    const late = updatesBetween(obs, turn.conn, turn.sessionId, justAfter(turn.idle.t), turn.closedT).find(
      (f) =>
        ['agent_message_chunk', 'agent_message', 'tool_call_update'].includes(
          String(updateOf(f).sessionUpdate),
        ),
    );
    if (late) return flag('fail', 'a turn update after the idle state', late);
    return pass(`messageId, running → idle (${String(updateOf(turn.idle).stopReason)})`);
  },
};

export const V2_CHECKS: readonly Check[] = [v2Turn];
