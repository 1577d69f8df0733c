/**
 * The v1 connection's script: a request before `initialize`, the handshake, error handling
 * (unknown method, unknown notification, invalid params), a session, and the session methods the
 * agent advertises. Turns run on the same connection afterwards (./turns.ts).
 */
import type { Observations, Step } from '../observations.js';
import { resultOf } from '../observations.js';
import type { JsonObject } from '../types.js';
import type { WirePeer } from '../wire/peer.js';

export const CLIENT_INFO = { name: 'acp-check', title: 'acp check', version: '0.1.0' };

/** What we advertise: nothing optional, so any `fs/*` or `terminal/*` call breaks the contract. */
export const V1_CLIENT_CAPABILITIES = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };

export interface DriveOptions {
  requestTimeoutMs: number;
  turnTimeoutMs: number;
}

export async function step(
  peer: WirePeer,
  method: string,
  params: unknown,
  timeoutMs: number,
  id?: string | number,
): Promise<Step> {
  return stepFrame(peer, { jsonrpc: '2.0', id: id ?? `check-${method}`, method, params }, timeoutMs);
}

export async function stepFrame(peer: WirePeer, sent: JsonObject, timeoutMs: number): Promise<Step> {
  const t = peer.now();
  const answer = await peer.requestFrame(sent, timeoutMs);
  return { t, sent, answer };
}

/** The agent's capabilities from its `initialize` answer (v1 field names). */
export function agentCapabilities(obs: Observations): JsonObject {
  const caps = resultOf(obs.initialize)?.agentCapabilities;
  return typeof caps === 'object' && caps !== null ? (caps as JsonObject) : {};
}

/** A session capability (`list`, `resume`, `close`…) is advertised: present and not null/false. */
export function hasSessionCapability(obs: Observations, name: string): boolean {
  const session = agentCapabilities(obs).sessionCapabilities;
  if (typeof session !== 'object' || session === null) return false;
  const marker = (session as JsonObject)[name];
  return marker !== undefined && marker !== null && marker !== false;
}

/** Handshake and the offline steps; leaves `obs.newSession` for the turns when a session opened. */
export async function driveV1Offline(
  peer: WirePeer,
  obs: Observations,
  options: DriveOptions,
): Promise<void> {
  const timeout = options.requestTimeoutMs;
  if (!obs.remote)
    obs.preInit = await step(
      peer,
      'session/new',
      { cwd: obs.cwd, mcpServers: [] },
      timeout,
      'check-before-initialize',
    );
  obs.initialize = await step(
    peer,
    'initialize',
    { protocolVersion: 1, clientCapabilities: V1_CLIENT_CAPABILITIES, clientInfo: CLIENT_INFO },
    timeout,
  );
  if (resultOf(obs.initialize) === undefined) return;
  const version = resultOf(obs.initialize)?.protocolVersion;
  obs.versions.set(peer.conn, version === 2 ? 2 : 1);
  obs.unknownMethod = await step(peer, 'check/no_such_method', {}, timeout);
  peer.notify('check/no_such_notification', { note: 'acp check: an unknown notification, to be ignored' });
  obs.afterUnknownNotification = await step(
    peer,
    'check/no_such_method',
    {},
    timeout,
    'check-after-notification',
  );
  // Wrong types in required fields: the params are invalid whatever the agent supports.
  obs.invalidParams = await step(
    peer,
    'session/new',
    { cwd: 42, mcpServers: 'none' },
    timeout,
    'check-invalid-params',
  );
  obs.newSession = await step(peer, 'session/new', { cwd: obs.cwd, mcpServers: [] }, timeout);
  if (hasSessionCapability(obs, 'list'))
    obs.list = await step(peer, 'session/list', { cwd: obs.cwd }, timeout);
}

/** The session methods that need a session, after the turns (so that `session/load` replays one). */
export async function driveV1SessionMethods(
  peer: WirePeer,
  obs: Observations,
  options: DriveOptions,
): Promise<void> {
  const sessionId = resultOf(obs.newSession)?.sessionId;
  if (typeof sessionId !== 'string') return;
  const timeout = options.requestTimeoutMs;
  if (agentCapabilities(obs).loadSession === true) {
    const load = await step(peer, 'session/load', { sessionId, cwd: obs.cwd, mcpServers: [] }, timeout);
    obs.load = { ...load, sessionId };
  }
  if (hasSessionCapability(obs, 'resume')) {
    obs.resume = await step(peer, 'session/resume', { sessionId, cwd: obs.cwd, mcpServers: [] }, timeout);
  }
  if (hasSessionCapability(obs, 'close')) {
    obs.close = await step(peer, 'session/close', { sessionId }, timeout);
  }
}
