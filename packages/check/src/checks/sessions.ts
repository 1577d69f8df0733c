/**
 * Sessions: `session/new`, and `session/list`, `session/load` (with its replay), `session/resume`
 * and `session/close` where the agent advertises them.
 */
import {
  errorOf,
  resultOf,
  updateOf,
  updatesBetween,
  type Observations,
  type Step,
} from '../observations.js';
import { isObject } from '../types.js';
import { SPEC, flag, noResponse, notApplicable, pass, type Check, type Judgement } from './check.js';
import { hasSessionCapability } from '../drive/v1.js';

const SESSION_SETUP = `${SPEC}/session-setup`;

function answered(obs: Observations, step: Step | undefined, what: string, advertised: boolean): Judgement {
  if (!advertised) return notApplicable('not advertised');
  if (!step) return notApplicable('no session to try it on');
  const missing = noResponse(step, obs);
  if (missing) return flag('fail', `${what}: ${missing}`, step);
  if (errorOf(step)) return flag('fail', `${what} failed although advertised`, step);
  return pass(`${what} answered`);
}

const sessionNew: Check = {
  name: 'session.new',
  title: 'session/new',
  rule: {
    text: 'session/new answers a sessionId (or -32000 when authentication is required)',
    url: SESSION_SETUP,
  },
  needs: ['v1'],
  judge(obs) {
    if (!resultOf(obs.initialize)) return notApplicable('initialize failed');
    const step = obs.newSession;
    const missing = noResponse(step, obs);
    if (missing) return flag('fail', `session/new: ${missing}`, step);
    const error = errorOf(step);
    if (error?.code === -32000)
      return flag('warn', 'authentication required: the session checks did not run', step);
    if (error) return flag('fail', 'session/new failed', step);
    if (typeof resultOf(step)?.sessionId !== 'string')
      return flag('fail', 'no sessionId in the answer', step);
    return pass('session opened');
  },
};

const sessionList: Check = {
  name: 'session.list',
  title: 'session/list (where advertised)',
  rule: { text: 'sessionCapabilities.list: session/list answers {sessions}', url: `${SPEC}/session-list` },
  needs: ['v1'],
  judge: (obs) => answered(obs, obs.list, 'session/list', hasSessionCapability(obs, 'list')),
};

const sessionResume: Check = {
  name: 'session.resume',
  title: 'session/resume (where advertised)',
  rule: {
    text: 'sessionCapabilities.resume: session/resume reopens a session without replaying it',
    url: SESSION_SETUP,
  },
  needs: ['v1'],
  judge(obs) {
    const base = answered(obs, obs.resume, 'session/resume', hasSessionCapability(obs, 'resume'));
    if (base.status !== 'pass' || !obs.resume || obs.resume.answer.kind !== 'response') return base;
    const sessionId = resultOf(obs.newSession)?.sessionId as string;
    const replayed = updatesBetween(obs, 'v1', sessionId, obs.resume.t, obs.resume.answer.t).filter((frame) =>
      ['user_message_chunk', 'agent_message_chunk'].includes(String(updateOf(frame).sessionUpdate)),
    );
    if (replayed[0])
      return flag('warn', 'session/resume replayed history (resume MUST NOT replay)', replayed[0]);
    return base;
  },
};

const sessionClose: Check = {
  name: 'session.close',
  title: 'session/close (where advertised)',
  rule: {
    text: 'sessionCapabilities.close: session/close ends a session and answers {}',
    url: SESSION_SETUP,
  },
  needs: ['v1'],
  judge: (obs) => answered(obs, obs.close, 'session/close', hasSessionCapability(obs, 'close')),
};

/** The text of a turn's chunks of `kind` in a window. */
function chunkText(obs: Observations, sessionId: string, from: number, to: number, kind: string): string {
  let text = '';
  for (const frame of updatesBetween(obs, 'v1', sessionId, from, to)) {
    const update = updateOf(frame);
    if (
      update.sessionUpdate === kind &&
      isObject(update.content) &&
      typeof update.content.text === 'string'
    ) {
      text += update.content.text;
    }
  }
  return text;
}

const sessionLoad: Check = {
  name: 'session.load',
  title: 'session/load replays the session (where advertised)',
  rule: {
    text: 'loadSession: session/load replays the whole conversation as session/update BEFORE answering',
    url: `${SESSION_SETUP}#loading-sessions`,
  },
  needs: ['v1'],
  judge(obs) {
    const load = obs.load;
    const base = answered(obs, load, 'session/load', load !== undefined);
    if (base.status !== 'pass' || !load || load.answer.kind !== 'response') return base;
    const turn = obs.turn;
    if (!turn || turn.prompt.answer.kind !== 'response')
      return pass('session/load answered (no turn to replay)');
    const said = chunkText(obs, turn.sessionId, turn.prompt.t, turn.prompt.answer.t, 'agent_message_chunk');
    const replayedAgent = chunkText(obs, load.sessionId, load.t, load.answer.t, 'agent_message_chunk');
    const replayedUser = chunkText(obs, load.sessionId, load.t, load.answer.t, 'user_message_chunk');
    const late = updatesBetween(obs, 'v1', load.sessionId, load.answer.t, Infinity)[0];
    if (
      late &&
      ['user_message_chunk', 'agent_message_chunk'].includes(String(updateOf(late).sessionUpdate))
    ) {
      return flag('fail', 'history replayed after the session/load answer', late);
    }
    const promptText = (turn.prompt.sent.params as { prompt: { text: string }[] }).prompt[0]?.text ?? '';
    if (!replayedUser.includes(promptText)) return flag('fail', "the replay lacks the turn's prompt", load);
    if (said && !replayedAgent.includes(said))
      return flag('fail', "the replay lacks the agent's answer of the turn", load);
    return pass('history replayed before the answer: the prompt and the answer of the turn');
  },
};

export const SESSION_CHECKS: readonly Check[] = [
  sessionNew,
  sessionList,
  sessionLoad,
  sessionResume,
  sessionClose,
];
