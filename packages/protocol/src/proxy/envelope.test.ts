/** The proxy/successor envelope: what wraps, what unwraps, and what is refused with -32602. */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../jsonrpc/errors.js';
import { METHOD_TABLE } from '../schema/unstable/methods.gen.js';
import { PROXY_METHODS, unwrapSuccessor, wrapSuccessor } from './envelope.js';

describe('proxy/successor envelope', () => {
  it('names the methods of the unstable schema', () => {
    for (const method of Object.values(PROXY_METHODS)) expect(METHOD_TABLE.get(method)?.side).toBe('proxy');
  });

  it('wraps without copying the envelope _meta into the message, and unwraps back', () => {
    const params = { sessionId: 's', _meta: { inner: 1 } };
    const envelope = wrapSuccessor({ method: 'session/cancel', params }, { hop: true });
    expect(envelope).toEqual({ method: 'session/cancel', params, _meta: { hop: true } });
    expect(unwrapSuccessor(envelope)).toEqual({ method: 'session/cancel', params });
    expect(wrapSuccessor({ method: 'x', params: null })).toEqual({ method: 'x' });
    expect(unwrapSuccessor({ method: 'x', params: null })).toEqual({ method: 'x' });
  });

  it.each([
    [null, 'params must be an object with a string "method"'],
    [{ params: {} }, 'params must be an object with a string "method"'],
    [{ method: 7 }, 'params must be an object with a string "method"'],
    [{ method: 'x', params: 'text' }, 'the wrapped "params" must be an object or an array'],
  ])('refuses %j with -32602', (params, reason) => {
    let error: unknown;
    try {
      unwrapSuccessor(params);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, data: { method: 'proxy/successor', reason } });
  });
});
