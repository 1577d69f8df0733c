import { describe, expect, it } from 'vitest';
import { evidenceOf } from './evidence.js';
import { formatReport } from './report.js';
import type { CheckReport } from './types.js';

const report: CheckReport = {
  version: 1,
  target: 'my-agent',
  offline: false,
  results: [
    {
      name: 'a.pass',
      title: 'A',
      status: 'pass',
      summary: 'fine',
      rule: { text: 'rule A', url: 'https://a' },
    },
    {
      name: 'b.fail',
      title: 'B',
      status: 'fail',
      summary: 'broken',
      rule: { text: 'rule B', url: 'https://b' },
      evidence: 'agent→ {}',
    },
  ],
  counts: { pass: 1, fail: 1, warn: 0, 'n/a': 0 },
};

describe('formatReport', () => {
  it('shows the rule and evidence of problems only, coloured only when asked', () => {
    const plain = formatReport(report, { colour: false });
    expect(plain).toContain('PASS  a.pass      fine\nFAIL  b.fail      broken\n      rule: rule B\n');
    expect(plain).toContain('      evidence: agent→ {}\n');
    expect(plain).not.toContain('rule A');
    expect(plain).not.toContain('\u001b[');
    expect(plain.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed, 0 warned, 0 not applicable');
    const coloured = formatReport(report, { colour: true, verbose: true });
    expect(coloured).toContain('\u001b[31mFAIL\u001b[0m');
    expect(coloured).toContain('rule A');
  });
});

describe('evidenceOf', () => {
  it('removes secrets and control characters and shortens long values', () => {
    const text = evidenceOf({
      params: { env: { OPENAI_API_KEY: 'sk-123' }, apiKey: 'k', text: `a\u001b[31mred\n${'x'.repeat(200)}` },
    });
    expect(text).not.toContain('sk-123');
    expect(text).toContain('"env":"[redacted]"');
    expect(text).toContain('"apiKey":"[redacted]"');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('…(210 chars)');
  });
});
