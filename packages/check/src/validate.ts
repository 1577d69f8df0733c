/**
 * Judges one frame from the agent against the schema of the version its connection speaks: the
 * strict generated check (what the schema says) and the lenient parser (what a tolerant peer
 * accepts, repairing per the schema's leniency annotations). A frame can be strictly valid, valid
 * only leniently, or invalid.
 */
import { METHOD_TABLE as V1_TABLE, parseWith, type MethodInfo } from '@acp-kit/protocol';
import { METHOD_TABLE as V1_UNSTABLE_TABLE } from '@acp-kit/protocol/unstable';
import { METHOD_TABLE as V2_TABLE } from '@acp-kit/protocol/v2';
import { METHOD_TABLE as V2_UNSTABLE_TABLE } from '@acp-kit/protocol/v2/unstable';
import { isObject, type ObservedFrame } from './types.js';

export type FrameVerdict =
  | { kind: 'strict' }
  | { kind: 'lenient'; where: string; repairs: string[] }
  | { kind: 'invalid'; where: string; reason: string };

/** The method's entry: the stable table first, then the unstable schema's. */
function methodInfo(method: string, version: 1 | 2): MethodInfo | undefined {
  const tables = version === 2 ? [V2_TABLE, V2_UNSTABLE_TABLE] : [V1_TABLE, V1_UNSTABLE_TABLE];
  for (const table of tables) {
    const info = table.get(method) as MethodInfo | undefined;
    if (info) return info;
  }
  return undefined;
}

function judge(
  where: string,
  value: unknown,
  check: MethodInfo['checkParams'],
  parse: MethodInfo['parseParams'],
): FrameVerdict {
  if (check(value)) return { kind: 'strict' };
  // The lenient parser repairs in place: give it a copy, the log keeps the frame as sent.
  const parsed = parseWith(parse, structuredClone(value));
  if (!parsed.ok) {
    return { kind: 'invalid', where, reason: `${parsed.error.path || '(root)'}: ${parsed.error.message}` };
  }
  const repairs = parsed.diagnostics.map((d) => `${d.path || '(root)'}: ${d.kind} (${d.message})`);
  return {
    kind: 'lenient',
    where,
    repairs: repairs.length > 0 ? repairs : ['accepted only by lenient parsing'],
  };
}

/** The verdict on a frame the agent sent on a connection speaking `version`. */
export function judgeFrame(observed: ObservedFrame, version: 1 | 2): FrameVerdict {
  const { frame } = observed;
  if ('unparsed' in frame) return { kind: 'invalid', where: 'stdout', reason: 'not a JSON object' };
  if (frame.jsonrpc !== '2.0') return { kind: 'invalid', where: 'jsonrpc', reason: 'jsonrpc is not "2.0"' };
  const method = frame.method;
  if (method === undefined) {
    if (isObject(frame.error)) {
      const { code, message } = frame.error;
      if (!Number.isInteger(code) || typeof message !== 'string') {
        return {
          kind: 'invalid',
          where: 'error',
          reason: 'an error needs an integer code and a string message',
        };
      }
      return { kind: 'strict' };
    }
    if (!('result' in frame))
      return { kind: 'invalid', where: '(frame)', reason: 'neither a request nor a response' };
    const info = observed.answers ? methodInfo(observed.answers, version) : undefined;
    if (!info?.checkResult || !info.parseResult) return { kind: 'strict' };
    return judge(`result of ${observed.answers}`, frame.result, info.checkResult, info.parseResult);
  }
  if (typeof method !== 'string')
    return { kind: 'invalid', where: 'method', reason: 'method is not a string' };
  // Extension methods are free-form by the spec.
  if (method.startsWith('_')) return { kind: 'strict' };
  let info = methodInfo(method, version);
  if (info && !('id' in frame) && info.kind === 'request') info = info.notification;
  if (!info)
    return { kind: 'invalid', where: method, reason: `no method ${method} in the v${version} schema` };
  return judge(`params of ${method}`, frame.params, info.checkParams, info.parseParams);
}
