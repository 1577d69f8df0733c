/**
 * The checks against a real process: the fixture agent, correct and then with one seeded defect
 * at a time. Each defect must be reported by its check, with evidence, and by nothing else.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS, runChecks, selectChecks, type CheckReport } from './index.js';

const FIXTURE = fileURLToPath(new URL('./test-support/fixture-agent.mjs', import.meta.url));
let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'acp-check-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function check(defect: string, options: { offline?: boolean; only?: string[] } = {}): Promise<CheckReport> {
  return runChecks({
    target: { kind: 'command', command: process.execPath, args: [FIXTURE, defect], cwd },
    // Low thresholds so that the fixture's 1.2 s delays show; the correct fixture answers at once.
    slowInitializeMs: 600,
    slowFirstUpdateMs: 600,
    ...options,
  });
}

/** The checks that did not pass (n/a is not a finding). */
function findings(report: CheckReport): string[] {
  return report.results
    .filter((r) => r.status === 'fail' || r.status === 'warn')
    .map((r) => `${r.name}:${r.status}`);
}

/** Each seeded defect and what it must (only) produce. */
const DEFECTS: Record<string, string[]> = {
  'init-error': ['handshake.v1:fail'],
  'v2-error': ['handshake.v2:fail'],
  // An invalid capability is also an invalid frame: both checks see it, by design.
  'caps-invalid': ['capabilities.well-formed:warn', 'schema.strict:warn'],
  'auth-duplicate-id': ['auth.methods:fail'],
  'slow-init': ['timing.initialize:warn'],
  'unknown-method-wrong-code': ['errors.unknown-method:fail'],
  'answer-notification': ['errors.unknown-notification:fail'],
  'no-param-validation': ['errors.invalid-params:fail'],
  'serve-before-init': ['errors.before-initialize:fail'],
  'invalid-update': ['schema.strict:fail'],
  'fs-call': ['capabilities.honoured:fail'],
  'reuse-request-id': ['rpc.request-ids:fail'],
  'new-fails': ['session.new:fail'],
  'list-error': ['session.list:fail'],
  'load-no-replay': ['session.load:fail'],
  'resume-error': ['session.resume:fail'],
  'close-error': ['session.close:fail'],
  'late-update': ['turn.prompt:fail'],
  'unfinished-tool': ['turn.tool-calls:fail'],
  'reuse-tool-id': ['turn.tool-call-ids:fail'],
  'slow-first-update': ['timing.first-update:warn'],
  'cancel-error': ['cancel.stop-reason:fail'],
  'run-after-cancelled-permission': ['cancel.permission:fail'],
  'late-after-cancel': ['cancel.late-updates:fail'],
  'v2-idle-without-running': ['v2.turn:fail'],
};

describe('acp check against the fixture agent', () => {
  it('passes every check against the correct fixture, none of them not applicable', async () => {
    const report = await check('none');
    expect(findings(report)).toEqual([]);
    expect(report.counts).toEqual({ pass: ALL_CHECKS.length, fail: 0, warn: 0, 'n/a': 0 });
  });

  it('has a seeded defect for every check', () => {
    const covered = new Set(Object.values(DEFECTS).flatMap((list) => list.map((f) => f.split(':')[0])));
    expect(ALL_CHECKS.map((c) => c.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  for (const [defect, expected] of Object.entries(DEFECTS)) {
    it(`reports the seeded defect ${defect}, with evidence, and nothing else`, async () => {
      const report = await check(defect);
      expect(findings(report)).toEqual(expected);
      for (const result of report.results.filter((r) => r.status === 'fail' || r.status === 'warn')) {
        expect(result.rule.url).not.toBe('');
        if (!result.name.startsWith('timing.')) expect(result.evidence).toMatch(/agent→|→agent/);
      }
    });
  }

  it('runs no turn with offline, and says so', async () => {
    const report = await check('late-update', { offline: true });
    expect(findings(report)).toEqual([]);
    const turn = report.results.find((r) => r.name === 'turn.prompt');
    expect(turn).toMatchObject({ status: 'n/a', summary: '--offline' });
    expect(report.results.find((r) => r.name === 'v2.turn')?.status).toBe('n/a');
    // No prompt was sent: offline costs nothing.
    expect(report.results.find((r) => r.name === 'session.load')?.status).toBe('pass');
  });

  it('runs only the selected checks, by name or by prefix', async () => {
    const report = await check('fs-call', { only: ['errors.', 'handshake.v1'] });
    expect(report.results.map((r) => r.name)).toEqual([
      'handshake.v1',
      'errors.unknown-method',
      'errors.unknown-notification',
      'errors.invalid-params',
      'errors.before-initialize',
    ]);
    expect(findings(report)).toEqual([]);
  });

  it('refuses an unknown check name', () => {
    expect(() => selectChecks(['turn.promt'])).toThrow(/no check named "turn.promt"/);
  });

  it('reports an agent that exits at once, with its stderr', async () => {
    const report = await runChecks({
      target: {
        kind: 'command',
        command: process.execPath,
        args: ['-e', 'process.stderr.write("no config found\\n"); process.exit(3)'],
        cwd,
      },
      offline: true,
    });
    const handshake = report.results.find((r) => r.name === 'handshake.v1');
    expect(handshake?.status).toBe('fail');
    expect(handshake?.summary).toMatch(/exited with code 3[\s\S]*no config found/);
  });
});
