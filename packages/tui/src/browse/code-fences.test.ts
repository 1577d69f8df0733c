import { describe, expect, it } from 'vitest';
import { findFencedBlocks } from './code-fences.js';

const lines = (text: string): string[] => text.split('\n');

describe('fenced code blocks', () => {
  it('finds backtick and tilde fences with their language and code', () => {
    const text = 'Run:\n```sh\nnpm test\nnpm run lint\n```\nthen\n~~~\nplain\n~~~';
    expect(findFencedBlocks(lines(text))).toEqual([
      { startLine: 1, endLine: 5, language: 'sh', code: 'npm test\nnpm run lint' },
      { startLine: 6, endLine: 9, language: '', code: 'plain' },
    ]);
  });

  it('takes fences indented in list items, and strips their indentation from the code', () => {
    const text = '1. Install:\n   ```bash\n   npm ci\n     --quiet\n   ```';
    expect(findFencedBlocks(lines(text))).toEqual([
      { startLine: 1, endLine: 5, language: 'bash', code: 'npm ci\n  --quiet' },
    ]);
  });

  it('closes a fence only with the same character, at least as long', () => {
    const text = '````md\n```js\nx\n```\n~~~~\n````\nafter';
    expect(findFencedBlocks(lines(text))).toEqual([
      { startLine: 0, endLine: 6, language: 'md', code: '```js\nx\n```\n~~~~' },
    ]);
  });

  it('runs an unclosed fence to the end, and ignores inline code', () => {
    expect(findFencedBlocks(lines('a\n```py\nprint(1)'))).toEqual([
      { startLine: 1, endLine: 3, language: 'py', code: 'print(1)' },
    ]);
    expect(findFencedBlocks(lines('``` not ` a fence\ntext'))).toEqual([]);
  });
});
