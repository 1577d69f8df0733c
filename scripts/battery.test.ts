import { describe, expect, it } from 'vitest';
import { BEGIN, END, renderSection, replaceSection } from './battery.js';

describe('battery runner: docs/reliability.md', () => {
  it('replaces only the generated section and keeps hand-written ones', () => {
    const doc = `# Title\n\nintro\n\n${BEGIN}\nold figures\n${END}\n\n## Residual risks\n\nhand-written\n`;
    const out = replaceSection(doc, `${BEGIN}\nnew figures\n${END}`);
    expect(out).toBe(
      `# Title\n\nintro\n\n${BEGIN}\nnew figures\n${END}\n\n## Residual risks\n\nhand-written\n`,
    );
  });

  it('appends the section when the markers are missing', () => {
    expect(replaceSection('# Title\n', `${BEGIN}\nx\n${END}`)).toBe(`# Title\n\n${BEGIN}\nx\n${END}\n`);
  });

  it('renders figures with their targets, and the failed cases', () => {
    const section = renderSection(
      [
        {
          case: 'C1',
          name: 'kill→error p50',
          value: 12,
          unit: 'ms',
          target: '≤ 100 ms',
          pass: true,
          size: 'full',
          at: '',
        },
        { case: 'F3', name: 'escapes | writes', value: 3, target: '0', pass: false, size: 'full', at: '' },
      ],
      {
        numPassedTests: 1,
        numFailedTests: 1,
        testResults: [
          {
            name: `${process.cwd()}/test/battery/f.test.ts`,
            assertionResults: [
              { fullName: 'F3 race', status: 'failed', failureMessages: ['escaped\nstack'] },
            ],
          },
        ],
      },
      { size: 'full', seed: '1', commit: 'abc', date: 'today' },
    );
    expect(section.startsWith(BEGIN) && section.endsWith(END)).toBe(true);
    expect(section).toContain('| C1 | kill→error p50 | 12 ms | ≤ 100 ms | met |');
    expect(section).toContain('| F3 | escapes \\| writes | 3 | 0 | **not met** |');
    expect(section).toContain('F3 race: escaped');
  });
});
