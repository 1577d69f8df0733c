import { describe, expect, it } from 'vitest';
import {
  BEGIN,
  END,
  MAIN_SECTION,
  previousFigures,
  REMOTE_SECTION,
  renderSection,
  replaceSection,
} from './battery.js';

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

  it('a partial run (--only) replaces the figures it measured again and keeps the others', () => {
    const figure = (name: string, value: number) => ({
      case: 'L1',
      name,
      value,
      target: '0',
      pass: value === 0,
      size: 'full',
      at: '',
    });
    const meta = { size: 'full', seed: '1', commit: 'abc', date: 'monday' };
    const first = renderSection(
      [figure('escapes | kept', 0), figure('ran', 5), { ...figure('old', 1), case: 'A3' }],
      { numPassedTests: 3, numFailedTests: 0 },
      meta,
    );
    const previous = previousFigures(`# Doc\n\n${first}\n`);
    expect(previous?.rows).toHaveLength(3);
    const second = renderSection(
      [figure('ran', 0), figure('new', 0)],
      { numPassedTests: 2, numFailedTests: 0 },
      { ...meta, date: 'tuesday', commit: 'def', only: 'l-' },
      MAIN_SECTION,
      previous,
    );
    expect(second).toContain('| L1 | escapes \\| kept | 0 | 0 | met |');
    expect(second).toContain('| L1 | ran | 0 | 0 | met |');
    expect(second).not.toContain('| L1 | ran | 5 |');
    expect(second).toContain('| L1 | new | 0 | 0 | met |');
    expect(second).toContain('| A3 | old | 1 | 0 | **not met** |');
    expect(second).toMatch(
      /on monday: .*commit abc.* The figures of `test\/battery\/l-\*` were measured again .* on tuesday: .*commit def/,
    );
  });

  it('keeps the remote server’s cases (R) in a section of their own, rewritten by the runs that ran them', () => {
    const figure = (id: string) => ({
      case: id,
      name: `${id} figure`,
      value: 0,
      target: '0',
      pass: true,
      size: 'ci',
      at: '',
    });
    const report = {
      testResults: [
        {
          name: `${process.cwd()}/test/battery/c-chaos.test.ts`,
          assertionResults: [{ fullName: 'C1', status: 'passed' }],
        },
        {
          name: `${process.cwd()}/test/battery/r-remote-wire.test.ts`,
          assertionResults: [{ fullName: 'R1', status: 'failed', failureMessages: ['boom'] }],
        },
      ],
    };
    const meta = { size: 'ci', seed: '1', commit: 'abc', date: 'today' };
    // A figure goes where the file that measured it goes (a J1 canary count of an R file too).
    const canary = {
      ...figure('J1'),
      name: 'canary hits',
      file: `${process.cwd()}/test/battery/r-remote-wire.test.ts`,
    };
    const main = renderSection([figure('C1'), figure('R1'), canary], report, meta);
    const remote = renderSection([figure('C1'), figure('R1'), canary], report, meta, REMOTE_SECTION);
    expect(main).not.toContain('canary hits');
    expect(remote).toContain('| J1 | canary hits |');
    expect(main).toContain('| C1 |');
    expect(main).not.toContain('| R1 |');
    expect(main).toContain('Tests: 1 passed, 0 failed');
    expect(remote.startsWith(REMOTE_SECTION.begin) && remote.endsWith(REMOTE_SECTION.end)).toBe(true);
    expect(remote).toContain('### Targets of issue 17');
    expect(remote).toContain('| R1 |');
    expect(remote).not.toContain('| C1 |');
    expect(remote).toContain('Tests: 0 passed, 1 failed');
    expect(remote).toContain('R1: boom');
    const doc = replaceSection(`# T\n\n${BEGIN}\nold\n${END}\n`, remote, REMOTE_SECTION);
    expect(doc).toContain(`${BEGIN}\nold\n${END}`);
    expect(replaceSection(doc, `${REMOTE_SECTION.begin}\nnew\n${REMOTE_SECTION.end}`, REMOTE_SECTION)).toBe(
      `# T\n\n${BEGIN}\nold\n${END}\n\n${REMOTE_SECTION.begin}\nnew\n${REMOTE_SECTION.end}\n`,
    );
  });
});
