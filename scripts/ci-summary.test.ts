/** The last line of CI (.ci/summary.mjs): counts, and a failing exit when anything failed. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './bundle.ts';

const dir = mkdtempSync(join(tmpdir(), 'acp-ci-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function summary(report: unknown): { code: number | null; last: string } {
  const file = join(dir, 'report.json');
  writeFileSync(file, JSON.stringify(report));
  const result = spawnSync(process.execPath, [join(ROOT, '.ci/summary.mjs'), file], { encoding: 'utf8' });
  return { code: result.status, last: result.stdout.trim().split('\n').at(-1) ?? '' };
}

const file = (status: string, tests: string[]) => ({
  name: `/repo/${status}.test.ts`,
  status,
  message: status === 'failed' ? 'Error: boom' : '',
  assertionResults: tests.map((test) => ({ status: test })),
});

describe('the CI summary line', () => {
  it('counts passed, failed and skipped tests', () => {
    expect(
      summary({
        numPassedTests: 3,
        numFailedTests: 0,
        numPendingTests: 1,
        testResults: [file('passed', ['passed'])],
      }),
    ).toEqual({ code: 0, last: '3 passed, 0 failed, 1 skipped' });
    expect(
      summary({
        numPassedTests: 3,
        numFailedTests: 1,
        numPendingTests: 0,
        testResults: [file('failed', ['failed'])],
      }),
    ).toEqual({ code: 1, last: '3 passed, 1 failed, 0 skipped' });
  });

  it('counts a file that failed outside its tests (a failing beforeAll) as a failure', () => {
    // What vitest reports then: the file failed, its tests skipped, no failed test.
    const report = {
      numPassedTests: 5,
      numFailedTests: 0,
      numPendingTests: 2,
      testResults: [file('passed', ['passed']), file('failed', ['skipped', 'skipped'])],
    };
    expect(summary(report)).toEqual({ code: 1, last: '5 passed, 1 failed, 2 skipped' });
  });

  it('fails without a report', () => {
    const result = spawnSync(process.execPath, [join(ROOT, '.ci/summary.mjs'), join(dir, 'missing.json')], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed');
  });
});
