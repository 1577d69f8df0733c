/**
 * `@acp-kit/check`: conformance checks for ACP agents. Drives an agent over a real process (or a
 * remote URL) through named checks and reports each as pass, fail, warn or not applicable, with
 * the rule it rests on and the evidence.
 *
 * @example
 * import { runChecks, formatReport } from '@acp-kit/check';
 * const report = await runChecks({ target: { kind: 'command', command: 'my-agent', args: [], cwd: process.cwd() }, offline: true });
 * process.stdout.write(formatReport(report, { colour: false }));
 * process.exitCode = report.counts.fail > 0 ? 1 : 0;
 */
export { ALL_CHECKS, DEFAULT_PROMPT, runChecks, selectChecks } from './runner.js';
export type { RunChecksOptions } from './runner.js';
export type { Check, Judgement, Phase } from './checks/check.js';
export { formatReport, reportJson } from './report.js';
export type { FormatOptions } from './report.js';
export { evidenceOf } from './evidence.js';
export { describeTarget } from './wire/target.js';
export type { CheckTarget } from './wire/target.js';
export type { CheckReport, CheckResult, CheckStatus, Rule } from './types.js';
export { formatReplayReport, parseTrace, replayTrace } from './replay/replay.js';
export type { Divergence, ReplayReport, TraceEntry } from './replay/replay.js';
export { serveClientChecks } from './client/client-checks.js';
export type { ClientCheckOptions } from './client/client-checks.js';
