/**
 * The handshake: version negotiation in v1 and v2, the agent's capabilities and auth methods,
 * and how long `initialize` took.
 */
import { parseWith, validators } from '@acp-kit/protocol';
import { errorOf, resultOf } from '../observations.js';
import { isObject } from '../types.js';
import { SCHEMA_V1, SPEC, flag, noResponse, notApplicable, pass, type Check } from './check.js';

/** Above this, `initialize` gets a warning: a client waits for it before showing anything. */
export const SLOW_INITIALIZE_MS = 5000;

const handshakeV1: Check = {
  name: 'handshake.v1',
  title: 'initialize, protocol version 1',
  rule: {
    text: 'MUST answer initialize with the requested version when supported, else its own latest (never an error)',
    url: `${SPEC}/initialization#version-negotiation`,
  },
  needs: ['v1'],
  judge(obs) {
    const missing = noResponse(obs.initialize, obs);
    if (missing) return flag('fail', `initialize: ${missing}`, obs.initialize);
    const result = resultOf(obs.initialize);
    if (!result) return flag('fail', 'initialize was answered with an error', obs.initialize);
    const version = result.protocolVersion;
    if (!Number.isInteger(version)) return flag('fail', 'protocolVersion is not an integer', obs.initialize);
    if (version !== 1)
      return flag('warn', `answered version ${String(version)} to a v1 client`, obs.initialize);
    return pass('answered protocolVersion 1');
  },
};

const handshakeV2: Check = {
  name: 'handshake.v2',
  title: 'initialize, protocol version 2',
  rule: {
    text: 'answers a v2 initialize with 2 when it speaks v2, else with its latest version (a v1 agent: 1, not an error)',
    url: `${SPEC}/initialization#version-negotiation`,
  },
  needs: ['v2'],
  judge(obs) {
    const step = obs.v2Initialize;
    const missing = noResponse(step, obs, 'v2');
    if (missing) return flag('fail', `initialize (v2): ${missing}`, step);
    const error = errorOf(step);
    if (error) {
      // -32022 lists the versions it supports: v2's typed refusal.
      if (error.code === -32022) return pass('refused version 2 with -32022 and the versions it supports');
      return flag('fail', 'a v2 initialize was answered with an error, not a version', step);
    }
    const version = resultOf(step)?.protocolVersion;
    if (version === 2) return pass('speaks v2: answered protocolVersion 2');
    if (version === 1) return pass('speaks v1 only: answered protocolVersion 1 (the client may go on in v1)');
    return flag('fail', `answered protocolVersion ${JSON.stringify(version)} to a request for 2`, step);
  },
};

const capabilitiesWellFormed: Check = {
  name: 'capabilities.well-formed',
  title: 'agentCapabilities well formed',
  rule: {
    text: 'agentCapabilities follows the schema; capability markers are objects ({} = supported), omitted = unsupported',
    url: `${SCHEMA_V1}/AgentCapabilities`,
  },
  needs: ['v1'],
  judge(obs) {
    const result = resultOf(obs.initialize);
    if (!result) return notApplicable('no initialize answer');
    const caps = result.agentCapabilities;
    if (caps === undefined) return pass('no agentCapabilities: nothing optional is supported');
    if (validators.checkAgentCapabilities(caps)) return pass('agentCapabilities strictly valid');
    const parsed = parseWith(validators.parseAgentCapabilities, structuredClone(caps));
    const where = parsed.ok
      ? parsed.diagnostics.map((d) => `${d.path}: ${d.message}`).join('; ') || 'accepted only leniently'
      : `${parsed.error.path}: ${parsed.error.message}`;
    return flag(parsed.ok ? 'warn' : 'fail', `agentCapabilities: ${where}`, obs.initialize);
  },
};

const authMethods: Check = {
  name: 'auth.methods',
  title: 'auth methods well formed',
  rule: { text: 'authMethods: each method has a unique id and a name', url: `${SCHEMA_V1}/AuthMethod` },
  needs: ['v1'],
  judge(obs) {
    const result = resultOf(obs.initialize);
    if (!result) return notApplicable('no initialize answer');
    const methods = result.authMethods;
    if (methods === undefined) return notApplicable('no authMethods');
    if (!Array.isArray(methods)) return flag('fail', 'authMethods is not an array', obs.initialize);
    const seen = new Set<unknown>();
    for (const [index, method] of methods.entries()) {
      if (!validators.checkAuthMethod(method)) {
        const parsed = parseWith(validators.parseAuthMethod, structuredClone(method));
        const why = parsed.ok ? 'accepted only leniently' : `${parsed.error.path}: ${parsed.error.message}`;
        return flag(parsed.ok ? 'warn' : 'fail', `authMethods[${index}]: ${why}`, obs.initialize);
      }
      const id = isObject(method) ? method.id : undefined;
      if (seen.has(id))
        return flag('fail', `authMethods[${index}]: id ${JSON.stringify(id)} repeated`, obs.initialize);
      seen.add(id);
    }
    return pass(
      methods.length === 0 ? 'no auth methods (none needed)' : `${methods.length} well-formed auth method(s)`,
    );
  },
};

const initializeTiming: Check = {
  name: 'timing.initialize',
  title: 'initialize answered promptly',
  rule: {
    text: `SHOULD answer initialize quickly (warned above ${SLOW_INITIALIZE_MS} ms): clients wait for it before anything else`,
    url: `${SPEC}/initialization`,
  },
  needs: ['v1'],
  judge(obs) {
    const step = obs.initialize;
    if (step?.answer.kind !== 'response') return notApplicable('no initialize answer');
    const ms = Math.round(step.answer.t - step.t);
    const data = { initializeMs: ms };
    if (ms > obs.slowInitializeMs) return flag('warn', `initialize took ${ms} ms`, undefined, data);
    return pass(`initialize took ${ms} ms`, data);
  },
};

export const HANDSHAKE_CHECKS: readonly Check[] = [
  handshakeV1,
  handshakeV2,
  capabilitiesWellFormed,
  authMethods,
  initializeTiming,
];
