import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '@acp-kit/client';
import { noticeOf } from './notice.js';

const stop = (stopReason: string): TranscriptItem => ({ kind: 'stop', key: 's', turn: 1, stopReason });

describe('noticeOf', () => {
  it('states a refusal and other abnormal ends of the turn', () => {
    expect(noticeOf(stop('refusal'))).toEqual({
      severity: 'error',
      text: 'The agent refused to continue this request.',
    });
    expect(noticeOf(stop('max_tokens'))?.text).toContain('the response reached the token limit');
    expect(noticeOf(stop('end_turn'))).toBeUndefined();
  });

  it('shows nothing for messages, tool calls and plans: their components draw them', () => {
    expect(noticeOf({ kind: 'plan', key: 'p', turn: 1, entries: [] })).toBeUndefined();
  });
});
