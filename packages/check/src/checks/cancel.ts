/**
 * Cancellation (v1): the prompt answered `cancelled` (never an error), a pending permission
 * question answered `cancelled` tolerated, no turn update after the answer.
 */
import {
  errorOf,
  resultOf,
  updateOf,
  updatesBetween,
  type Observations,
  type TurnRecord,
} from '../observations.js';
import { SPEC, flag, noResponse, notApplicable, pass, type Check, type Judgement } from './check.js';
import { lateUpdate } from './turn.js';

const CANCELLATION = `${SPEC}/prompt-turn#cancellation`;

function cancelled(obs: Observations): TurnRecord | Judgement {
  if (obs.turnsSkipped) return notApplicable(obs.turnsSkipped);
  const turn = obs.cancel;
  if (!turn) return notApplicable('no cancelled turn ran');
  if (turn.cancelT === undefined) return notApplicable('the turn ended before anything could be cancelled');
  return turn;
}

const stopReason: Check = {
  name: 'cancel.stop-reason',
  title: 'cancelled prompt answered "cancelled"',
  rule: {
    text: 'after session/cancel the agent MUST answer the prompt with stopReason "cancelled", not an error (costs one short model turn)',
    url: CANCELLATION,
  },
  needs: ['v1', 'turns'],
  judge(obs) {
    const turn = cancelled(obs);
    if (!('prompt' in turn)) return turn;
    const missing = noResponse(turn.prompt, obs);
    if (missing) return flag('fail', `the cancelled prompt: ${missing}`, turn.prompt);
    if (errorOf(turn.prompt))
      return flag('fail', 'the cancelled prompt was answered with an error', turn.prompt);
    const reason = resultOf(turn.prompt)?.stopReason;
    if (reason !== 'cancelled')
      return flag('fail', `answered stopReason ${JSON.stringify(reason)}`, turn.prompt);
    const ms = turn.prompt.answer.kind === 'response' ? Math.round(turn.prompt.answer.t - turn.cancelT!) : 0;
    return pass(`answered "cancelled" ${ms} ms after the cancel`, { cancelMs: ms });
  },
};

const pendingPermission: Check = {
  name: 'cancel.permission',
  title: 'pending permission answered "cancelled"',
  rule: {
    text: 'the client answers a pending session/request_permission "cancelled" after a cancel; the agent MUST NOT run that tool, and still answers the prompt',
    url: CANCELLATION,
  },
  needs: ['v1', 'turns'],
  judge(obs) {
    const turn = cancelled(obs);
    if (!('prompt' in turn)) return turn;
    if (!turn.permissionPending) return notApplicable('no permission question was pending at the cancel');
    const missing = noResponse(turn.prompt, obs);
    if (missing) return flag('fail', `after the cancelled permission: ${missing}`, turn.prompt);
    const asked = obs.log.frames.find(
      (f) =>
        f.dir === 'in' &&
        f.conn === turn.conn &&
        f.frame.method === 'session/request_permission' &&
        f.t >= turn.prompt.t,
    );
    const toolCall = (asked?.frame.params as { toolCall?: { toolCallId?: unknown } } | undefined)?.toolCall;
    const end = turn.prompt.answer.kind === 'response' ? turn.prompt.answer.t : turn.closedT;
    const ran = updatesBetween(obs, turn.conn, turn.sessionId, turn.cancelT!, end).find((f) => {
      const update = updateOf(f);
      return update.toolCallId === toolCall?.toolCallId && update.status === 'completed';
    });
    if (ran) return flag('fail', 'the tool ran although its permission was answered "cancelled"', ran);
    return pass('the refused tool call did not run, and the turn was answered');
  },
};

const lateAfterCancel: Check = {
  name: 'cancel.late-updates',
  title: 'no update after the cancelled answer',
  rule: {
    text: 'updates may still come after session/cancel, but all of them before the prompt is answered',
    url: CANCELLATION,
  },
  needs: ['v1', 'turns'],
  judge(obs) {
    const turn = cancelled(obs);
    if (!('prompt' in turn)) return turn;
    if (turn.prompt.answer.kind !== 'response') return notApplicable('the cancelled prompt was not answered');
    return lateUpdate(obs, turn) ?? pass('nothing after the answer');
  },
};

export const CANCEL_CHECKS: readonly Check[] = [stopReason, pendingPermission, lateAfterCancel];
