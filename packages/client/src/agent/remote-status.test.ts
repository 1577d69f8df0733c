import { describe, expect, it } from 'vitest';
import { nextRemoteStatus, remoteNotice, type RemoteStatus } from './remote-status.js';

const start: RemoteStatus = { url: 'http://h/acp', profile: undefined, state: 'connecting', resumes: 0 };

describe('remote status', () => {
  it('a busy server keeps the status connecting; a resumption counts', () => {
    const busy = nextRemoteStatus(start, {
      type: 'busy',
      profile: 'http',
      retryInMs: 5000,
      attempt: 1,
      attempts: 3,
    });
    expect(busy).toEqual({ ...start, profile: 'http', state: 'connecting' });
    const connected = nextRemoteStatus(busy, {
      type: 'connected',
      profile: 'http',
      url: 'u',
      resumable: true,
    });
    const cut = nextRemoteStatus(connected, { type: 'disconnected', profile: 'http', reason: 'x' });
    expect(cut.state).toBe('reconnecting');
    const back = nextRemoteStatus(cut, { type: 'resumed', profile: 'http', downtimeMs: 5, attempts: 1 });
    expect(back).toMatchObject({ state: 'connected', resumes: 1 });
    expect(start.resumes).toBe(0);
  });

  it('only a wait is told to the user', () => {
    expect(
      remoteNotice({ type: 'busy', profile: 'websocket', retryInMs: 1500, attempt: 2, attempts: 3 }),
    ).toBe('the server is full (too many connections): asking again in 1.5 s (2 of 3)');
    expect(remoteNotice({ type: 'reconnecting', profile: 'websocket', attempt: 1 })).toBeUndefined();
  });
});
