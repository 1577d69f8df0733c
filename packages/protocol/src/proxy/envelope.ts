/**
 * The `proxy/successor` envelope of proxy chains (unstable ACP v1, RFD "Proxy Chains"): one
 * request or notification wrapped as `{ method, params }` on the hop between a proxy and its
 * conductor. Results come back unchanged, so only the way in is wrapped.
 */
import { ProtocolError } from '../jsonrpc/errors.js';
import type { ProxySuccessorNotification, ProxySuccessorRequest } from '../schema/unstable/types.gen.js';
import { checkProxySuccessorRequest } from '../schema/unstable/validators.gen.js';

/** The two methods of proxy chains. */
export const PROXY_METHODS = {
  /** Sent by the conductor instead of `initialize` to a component that has a successor. */
  proxy_initialize: 'proxy/initialize',
  /** The envelope, both ways: a proxy sends it to reach its successor; the conductor, to deliver from it. */
  proxy_successor: 'proxy/successor',
} as const;

/** A message inside the envelope: its method and params (absent when it has none). */
export interface WrappedMessage {
  readonly method: string;
  readonly params?: unknown;
}

/** Wraps a message for `proxy/successor`. The envelope's own `_meta` is hop-local, never the message's. */
export function wrapSuccessor(
  message: WrappedMessage,
  envelopeMeta?: Record<string, unknown>,
): ProxySuccessorRequest & ProxySuccessorNotification {
  const envelope: ProxySuccessorRequest = { method: message.method };
  if (message.params !== undefined && message.params !== null) envelope.params = message.params;
  if (envelopeMeta !== undefined) envelope._meta = envelopeMeta;
  return envelope;
}

/**
 * Opens a `proxy/successor` envelope (request or notification params: the same shape). Throws
 * -32602 naming what is wrong, so a bad envelope is answered, never forwarded.
 */
export function unwrapSuccessor(params: unknown): WrappedMessage {
  if (!checkProxySuccessorRequest(params)) {
    throw ProtocolError.invalidParams({
      method: PROXY_METHODS.proxy_successor,
      reason: 'params must be an object with a string "method"',
    });
  }
  const inner = (params as ProxySuccessorRequest).params;
  if (inner === undefined || inner === null) return { method: (params as ProxySuccessorRequest).method };
  if (typeof inner !== 'object') {
    throw ProtocolError.invalidParams({
      method: PROXY_METHODS.proxy_successor,
      reason: 'the wrapped "params" must be an object or an array',
    });
  }
  return { method: (params as ProxySuccessorRequest).method, params: inner };
}
