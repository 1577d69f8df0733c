import { UNKNOWN_VARIANT, type CreateElicitationResponse } from '@acp-kit/protocol';
import type { CreateElicitationRequest as V2Request } from '@acp-kit/protocol/v2';
import { describe, expect, it } from 'vitest';
import { fromV2Elicitation, toV2ElicitationAnswer } from './v2-elicitation.js';

const FORM = {
  mode: 'form',
  message: 'Which branch?',
  sessionId: 's1',
  requestedSchema: { type: 'object', properties: { branch: { type: 'string' } } },
} as const;

describe('the v2 face, forms', () => {
  it('passes a form on as it came, and the answers back with their content', () => {
    expect(fromV2Elicitation(FORM as V2Request)).toEqual(FORM);
    expect(toV2ElicitationAnswer({ action: 'accept', content: { branch: 'main' } })).toEqual({
      action: 'accept',
      content: { branch: 'main' },
    });
    expect(toV2ElicitationAnswer({ action: 'decline' })).toEqual({ action: 'decline' });
    expect(toV2ElicitationAnswer({ action: 'cancel', _meta: { k: 1 } })).toEqual({
      action: 'cancel',
      _meta: { k: 1 },
    });
  });

  it('keeps a newer mode by name with its scope (the engine declines it); a host action v2 cannot carry is a cancel', () => {
    const future = {
      mode: 'browser',
      message: 'Open this',
      sessionId: 's1',
      toolCallId: 't1',
      [UNKNOWN_VARIANT]: true,
    };
    expect(fromV2Elicitation(future as unknown as V2Request)).toEqual({
      mode: 'browser',
      message: 'Open this',
      sessionId: 's1',
      toolCallId: 't1',
    });
    const own = { action: '_snooze' } as CreateElicitationResponse;
    expect(toV2ElicitationAnswer(own)).toEqual({ action: 'cancel' });
  });
});
