/**
 * Error handling: an unknown method, an unknown notification, invalid params, and a request
 * before `initialize`.
 */
import { errorOf, resultOf, type Observations, type Step } from '../observations.js';
import { SPEC, flag, noResponse, notApplicable, pass, type Check, type Judgement } from './check.js';

const JSONRPC_ERRORS = 'https://www.jsonrpc.org/specification#error_object';

function expectCode(obs: Observations, step: Step | undefined, code: number, what: string): Judgement {
  if (!resultOf(obs.initialize)) return notApplicable('initialize failed');
  const missing = noResponse(step, obs);
  if (missing) return flag('fail', `${what}: ${missing}`, step);
  const error = errorOf(step);
  if (!error) return flag('fail', `${what} succeeded instead of failing with ${code}`, step);
  if (error.code !== code) return flag('fail', `${what} answered ${String(error.code)}, not ${code}`, step);
  return pass(`${what} answered ${code}`);
}

const unknownMethod: Check = {
  name: 'errors.unknown-method',
  title: 'unknown method → -32601',
  rule: {
    text: 'MUST answer a request for an unknown method with -32601 Method not found',
    url: JSONRPC_ERRORS,
  },
  needs: ['v1'],
  judge: (obs) => expectCode(obs, obs.unknownMethod, -32601, 'an unknown method'),
};

const unknownNotification: Check = {
  name: 'errors.unknown-notification',
  title: 'unknown notification ignored',
  rule: {
    text: 'MUST ignore an unknown notification: no response, and the connection goes on',
    url: `${SPEC}/extensibility`,
  },
  needs: ['v1'],
  judge(obs) {
    if (!resultOf(obs.initialize)) return notApplicable('initialize failed');
    const step = obs.afterUnknownNotification;
    const missing = noResponse(step, obs);
    if (missing) return flag('fail', `after an unknown notification: ${missing}`, step);
    // A notification has no id: anything answering it is a response to an id we never used.
    const stray = obs.log.frames.find(
      (f) =>
        f.dir === 'in' &&
        f.conn === 'v1' &&
        f.answers === undefined &&
        f.frame.method === undefined &&
        f.t >= (obs.unknownMethod?.t ?? 0) &&
        f.t <= (step?.answer.kind === 'response' ? step.answer.t : Infinity),
    );
    if (stray) return flag('fail', 'the unknown notification was answered', stray);
    return pass('ignored, and the next request was answered');
  },
};

const invalidParams: Check = {
  name: 'errors.invalid-params',
  title: 'invalid params → -32602',
  rule: {
    text: 'MUST refuse params that break the schema with -32602 Invalid params (session/new with cwd: 42)',
    url: JSONRPC_ERRORS,
  },
  needs: ['v1'],
  judge: (obs) => expectCode(obs, obs.invalidParams, -32602, 'session/new with invalid params'),
};

const beforeInitialize: Check = {
  name: 'errors.before-initialize',
  title: 'request before initialize refused',
  rule: {
    text: 'initialize MUST come first: a request before it is refused with an error (-32600 in the SDKs), not served',
    url: `${SPEC}/initialization`,
  },
  needs: ['v1'],
  judge(obs) {
    if (obs.remote) return notApplicable('a remote transport carries initialize first');
    const step = obs.preInit;
    const missing = noResponse(step, obs);
    if (missing) return flag('fail', `session/new before initialize: ${missing}`, step);
    const error = errorOf(step);
    if (!error) return flag('fail', 'session/new before initialize was served', step);
    if (error.code !== -32600) {
      return flag('warn', `refused with ${String(error.code)} (the SDKs use -32600 Invalid request)`, step);
    }
    return pass('refused with -32600');
  },
};

export const ERROR_CHECKS: readonly Check[] = [
  unknownMethod,
  unknownNotification,
  invalidParams,
  beforeInitialize,
];
