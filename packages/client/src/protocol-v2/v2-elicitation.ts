/**
 * The v2 face, forms: a v2 `elicitation/create` as the engine's request (the v1 type, which
 * `ClientHost.elicit` takes) and the host's answer back as a v2 one. Both schemas define the
 * same modes, scopes, form schema and actions; what differs is how each keeps a value it does
 * not know, so only those cases are translated.
 */
import {
  isUnknownVariant,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
} from '@acp-kit/protocol';
import type {
  CreateElicitationRequest as V2Request,
  CreateElicitationResponse as V2Response,
} from '@acp-kit/protocol/v2';

/** The request in the engine's terms; a mode newer than our schema keeps its name (and is declined). */
export function fromV2Elicitation(params: V2Request): CreateElicitationRequest {
  if (!isUnknownVariant(params)) return params;
  const { sessionId, toolCallId, requestId } = params as Record<string, unknown>;
  const scope =
    typeof sessionId === 'string'
      ? { sessionId, ...(typeof toolCallId === 'string' ? { toolCallId } : {}) }
      : { requestId: typeof requestId === 'string' || typeof requestId === 'number' ? requestId : null };
  return { message: params.message, mode: params.mode, ...scope };
}

/** The host's answer as v2 sends it; an action of the host's own, which v2 cannot carry, is a cancel. */
export function toV2ElicitationAnswer(answer: CreateElicitationResponse): V2Response {
  const meta = answer._meta ? { _meta: answer._meta } : {};
  switch (answer.action) {
    case 'accept': {
      const content = (answer as { content?: Extract<V2Response, { action: 'accept' }>['content'] }).content;
      return { action: 'accept', ...(content ? { content } : {}), ...meta };
    }
    case 'decline':
      return { action: 'decline', ...meta };
    case 'cancel':
      return { action: 'cancel', ...meta };
    default:
      return { action: 'cancel', ...meta };
  }
}
