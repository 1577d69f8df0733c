/**
 * The turns: one full prompt turn (permission questions answered "allow once"), then a turn that
 * is cancelled — at its permission question when the first turn asked one (which is then left
 * pending until after the cancel, as the spec allows), else at its first update — and the v2
 * turn (answered with a `messageId`, ended by a `state_update` `idle`).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { resultOf, type Observations, type TurnRecord } from '../observations.js';
import { isObject, type JsonObject, type ObservedFrame } from '../types.js';
import type { InboundRequestHandler, WirePeer } from '../wire/peer.js';
import { step, type DriveOptions } from './v1.js';

/**
 * How long after a turn ended updates are still attributed to it (late updates are a defect the
 * checks look for; the agent is given this long to show one).
 */
export const SETTLE_MS = 300;

/** The kinds of update that belong to a turn (others, like commands or usage, may come any time). */
export const TURN_UPDATE_KINDS = new Set([
  'agent_message_chunk',
  'agent_thought_chunk',
  'agent_message',
  'agent_thought',
  'tool_call',
  'tool_call_update',
  'tool_call_content_chunk',
  'plan',
  'plan_update',
]);

const METHOD_NOT_FOUND = { error: { code: -32601, message: 'Method not found' } };

/** The option to select: allow once, else allow always, else the first. */
function allowOption(params: unknown): string | undefined {
  const options = isObject(params) && Array.isArray(params.options) ? params.options.filter(isObject) : [];
  const kinds = ['allow_once', 'allow_always'];
  for (const kind of kinds) {
    const found = options.find((option) => option.kind === kind);
    if (found && typeof found.optionId === 'string') return found.optionId;
  }
  const first = options[0]?.optionId;
  return typeof first === 'string' ? first : undefined;
}

/** Answers permission questions with "allow" (or cancelled when no option fits); nothing else is served. */
export const allowingHandler: InboundRequestHandler = (frame) => {
  if (frame.method !== 'session/request_permission') return METHOD_NOT_FOUND;
  const optionId = allowOption(frame.params);
  return {
    result: {
      outcome: optionId === undefined ? { outcome: 'cancelled' } : { outcome: 'selected', optionId },
    },
  };
};

function sessionOf(frame: ObservedFrame): unknown {
  return isObject(frame.frame.params) ? frame.frame.params.sessionId : undefined;
}

function isTurnUpdate(frame: ObservedFrame, sessionId: string): boolean {
  if (frame.dir !== 'in' || frame.frame.method !== 'session/update' || sessionOf(frame) !== sessionId)
    return false;
  const update = isObject(frame.frame.params) ? frame.frame.params.update : undefined;
  return isObject(update) && TURN_UPDATE_KINDS.has(String(update.sessionUpdate));
}

function promptParams(sessionId: string, text: string): JsonObject {
  return { sessionId, prompt: [{ type: 'text', text }] };
}

/** The full v1 turn and the cancelled one. */
export async function driveV1Turns(
  peer: WirePeer,
  obs: Observations,
  options: DriveOptions,
  promptText: string,
): Promise<void> {
  const sessionId = resultOf(obs.newSession)?.sessionId;
  if (typeof sessionId !== 'string') {
    obs.turnsSkipped = 'no session opened (session/new failed)';
    return;
  }
  let asked = false;
  peer.onRequest = (frame) => {
    if (frame.method === 'session/request_permission') asked = true;
    return allowingHandler(frame);
  };
  const prompt = await step(
    peer,
    'session/prompt',
    promptParams(sessionId, promptText),
    options.turnTimeoutMs,
  );
  await delay(SETTLE_MS);
  obs.turn = { conn: peer.conn, sessionId, prompt, closedT: peer.now() };
  obs.cancel = await cancelledTurn(peer, obs, options, promptText, asked);
  peer.onRequest = allowingHandler;
}

async function cancelledTurn(
  peer: WirePeer,
  obs: Observations,
  options: DriveOptions,
  promptText: string,
  atPermission: boolean,
): Promise<TurnRecord | undefined> {
  const opened = await step(
    peer,
    'session/new',
    { cwd: obs.cwd, mcpServers: [] },
    options.requestTimeoutMs,
    'check-new-2',
  );
  const sessionId = resultOf(opened)?.sessionId;
  if (typeof sessionId !== 'string') return undefined;
  let held: unknown;
  let holding = false;
  peer.onRequest = (frame) => {
    if (
      frame.method !== 'session/request_permission' ||
      sessionOf({ frame } as ObservedFrame) !== sessionId
    ) {
      return allowingHandler(frame);
    }
    held = frame.id;
    holding = true;
    return undefined;
  };
  const trigger = peer.waitFor(
    (frame) =>
      atPermission
        ? frame.frame.method === 'session/request_permission' && sessionOf(frame) === sessionId
        : isTurnUpdate(frame, sessionId),
    options.turnTimeoutMs,
  );
  const prompting = step(
    peer,
    'session/prompt',
    promptParams(sessionId, promptText),
    options.turnTimeoutMs,
    'check-cancel',
  );
  const first = await Promise.race([trigger, prompting.then(() => undefined)]);
  let cancelT: number | undefined;
  if (first !== undefined) {
    cancelT = peer.now();
    peer.notify('session/cancel', { sessionId });
    // The client's side of the rule: a pending question is answered `cancelled` after the cancel.
    if (holding) peer.respond(held, { result: { outcome: { outcome: 'cancelled' } } });
  }
  const prompt = await prompting;
  await delay(SETTLE_MS);
  return {
    conn: peer.conn,
    sessionId,
    prompt,
    closedT: peer.now(),
    ...(cancelT === undefined ? {} : { cancelT, permissionPending: holding }),
  };
}

/** The v2 turn: the answer carries a `messageId`; a `state_update` `idle` ends the turn. */
export async function driveV2Turn(
  peer: WirePeer,
  obs: Observations,
  options: DriveOptions,
  promptText: string,
): Promise<void> {
  peer.onRequest = allowingHandler;
  const opened = await step(peer, 'session/new', { cwd: obs.cwd, mcpServers: [] }, options.requestTimeoutMs);
  const sessionId = resultOf(opened)?.sessionId;
  if (typeof sessionId !== 'string') return;
  const idle = peer.waitFor((frame) => {
    if (frame.dir !== 'in' || frame.frame.method !== 'session/update' || sessionOf(frame) !== sessionId)
      return false;
    const update = isObject(frame.frame.params) ? frame.frame.params.update : undefined;
    return isObject(update) && update.sessionUpdate === 'state_update' && update.state === 'idle';
  }, options.turnTimeoutMs);
  const prompt = await step(
    peer,
    'session/prompt',
    promptParams(sessionId, promptText),
    options.turnTimeoutMs,
  );
  const idleFrame = await idle;
  await delay(SETTLE_MS);
  obs.v2Turn = {
    conn: peer.conn,
    sessionId,
    prompt,
    closedT: peer.now(),
    ...(idleFrame ? { idle: idleFrame } : {}),
  };
}
