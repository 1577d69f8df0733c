/**
 * Checks over every frame the agent sent: schema validity (strict, with the count of what only
 * lenient parsing accepted), the client's capabilities honoured, request ids unique.
 */
import type { Observations } from '../observations.js';
import { isObject, type ObservedFrame } from '../types.js';
import { judgeFrame } from '../validate.js';
import { SCHEMA_V1, SPEC, flag, pass, type Check } from './check.js';

const schemaStrict: Check = {
  name: 'schema.strict',
  title: 'every frame valid against the schema',
  rule: {
    text: "every params and result MUST match its method's schema definition; lenient parsing only repairs what x-deserialize-* allows",
    url: `${SCHEMA_V1}`,
  },
  needs: ['v1'],
  judge(obs) {
    let strict = 0;
    const lenient: { frame: ObservedFrame; why: string }[] = [];
    const invalid: { frame: ObservedFrame; why: string }[] = [];
    for (const frame of obs.log.frames) {
      if (frame.dir !== 'in') continue;
      const verdict = judgeFrame(frame, obs.versions.get(frame.conn) ?? 1);
      if (verdict.kind === 'strict') strict++;
      else if (verdict.kind === 'lenient')
        lenient.push({ frame, why: `${verdict.where}: ${verdict.repairs.join('; ')}` });
      else invalid.push({ frame, why: `${verdict.where}: ${verdict.reason}` });
    }
    const data = { strict, lenientOnly: lenient.length, invalid: invalid.length };
    const counts = `${strict} strictly valid, ${lenient.length} valid only leniently, ${invalid.length} invalid`;
    const first = invalid[0] ?? lenient[0];
    if (!first) return pass(counts, data);
    return flag(invalid.length > 0 ? 'fail' : 'warn', `${counts}; first: ${first.why}`, first.frame, data);
  },
};

/** What a v1 connection of the checker never advertises, and so must never receive. */
function unadvertised(frame: ObservedFrame): string | undefined {
  const method = frame.frame.method;
  if (typeof method !== 'string' || !('id' in frame.frame)) {
    if (method === 'session/update') {
      const update = isObject(frame.frame.params) ? frame.frame.params.update : undefined;
      const kind = isObject(update) ? update.sessionUpdate : undefined;
      if (
        frame.conn === 'v1' &&
        (kind === 'notice' || kind === 'compaction_update' || kind === 'compaction_summary_chunk')
      ) {
        return `a ${String(kind)} update (session.notices/compaction not advertised)`;
      }
    }
    return undefined;
  }
  if (method.startsWith('fs/')) return `${method} (fs not advertised)`;
  if (method.startsWith('terminal/')) return `${method} (terminal not advertised)`;
  if (method.startsWith('elicitation/')) return `${method} (elicitation not advertised)`;
  return undefined;
}

const capabilitiesHonoured: Check = {
  name: 'capabilities.honoured',
  title: "client's capabilities honoured",
  rule: {
    text: 'MUST NOT call fs/*, terminal/* or elicitation, nor send notices/compaction, unless the client advertised them',
    url: `${SPEC}/initialization#client-capabilities`,
  },
  needs: ['v1'],
  judge(obs: Observations) {
    for (const frame of obs.log.frames) {
      if (frame.dir !== 'in') continue;
      const what = unadvertised(frame);
      if (what) return flag('fail', `sent ${what}`, frame);
    }
    return pass('no call or update the client did not advertise');
  },
};

const requestIdsUnique: Check = {
  name: 'rpc.request-ids',
  title: "agent's request ids unique",
  rule: {
    text: 'a request id MUST NOT be reused while a request with that id is pending',
    url: 'https://www.jsonrpc.org/specification#request_object',
  },
  needs: ['v1'],
  judge(obs) {
    const pending = new Map<string, ObservedFrame>();
    for (const frame of obs.log.frames) {
      const { method } = frame.frame;
      if (!('id' in frame.frame)) continue;
      const key = `${frame.conn} ${JSON.stringify(frame.frame.id)}`;
      if (frame.dir === 'in' && typeof method === 'string') {
        if (pending.has(key))
          return flag('fail', `request id ${JSON.stringify(frame.frame.id)} reused while pending`, frame);
        pending.set(key, frame);
      } else if (frame.dir === 'out' && method === undefined) {
        pending.delete(key);
      }
    }
    return pass('no id reused while pending');
  },
};

export const FRAME_CHECKS: readonly Check[] = [schemaStrict, capabilitiesHonoured, requestIdsUnique];
