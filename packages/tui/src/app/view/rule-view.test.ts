import { describe, expect, it } from 'vitest';
import { ruleSummary } from './rule-view.js';

describe('ruleSummary', () => {
  it('names an exact or prefix command and the variables the rule lets it set, escaped', () => {
    expect(
      ruleSummary({
        action: 'allow',
        kinds: ['execute'],
        command: 'make',
        exact: true,
        env: { MAKEFLAGS: ['-j4', '-j8'], NODE_ENV: true, GIT_DIR: '/tmp/x\u200by' },
      }),
    ).toBe('allow execute `make` with MAKEFLAGS=-j4 or -j8, NODE_ENV=(any value), GIT_DIR=/tmp/x\\u{200b}y');
    expect(ruleSummary({ action: 'deny', command: 'git push\n' })).toBe('deny anything `git push\\n …`');
    expect(ruleSummary({ action: 'ask', path: '/work/p/a\u200b.md' }, '/work/p')).toBe(
      'ask anything a\\u{200b}.md',
    );
  });
});
