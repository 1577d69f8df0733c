/**
 * The report for people (a table, coloured unless told not to) and for machines (JSON, the
 * {@link CheckReport} format documented in docs/check.md).
 */
import type { CheckReport, CheckStatus } from './types.js';

const COLOURS: Record<CheckStatus, string> = { pass: '32', fail: '31', warn: '33', 'n/a': '90' };
const LABELS: Record<CheckStatus, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', 'n/a': 'n/a ' };

export interface FormatOptions {
  colour: boolean;
  /** Also show the rule and evidence of passing checks (default: only for fail and warn). */
  verbose?: boolean;
}

/** The report as a readable table: one line per check, the rule and evidence under each problem. */
export function formatReport(report: CheckReport, options: FormatOptions): string {
  const paint = (status: CheckStatus, text: string): string =>
    options.colour ? `\u001b[${COLOURS[status]}m${text}\u001b[0m` : text;
  const dim = (text: string): string => (options.colour ? `\u001b[2m${text}\u001b[0m` : text);
  const width = Math.max(...report.results.map((result) => result.name.length), 10);
  const lines = [`acp check: ${report.target}${report.offline ? ' (offline)' : ''}`, ''];
  for (const result of report.results) {
    lines.push(
      `${paint(result.status, LABELS[result.status])}  ${result.name.padEnd(width)}  ${result.summary}`,
    );
    if (result.status === 'fail' || result.status === 'warn' || options.verbose) {
      lines.push(dim(`      rule: ${result.rule.text}`), dim(`            ${result.rule.url}`));
      if (result.evidence) lines.push(`      evidence: ${result.evidence}`);
    }
  }
  const { pass, fail, warn } = report.counts;
  lines.push('', `${pass} passed, ${fail} failed, ${warn} warned, ${report.counts['n/a']} not applicable`);
  return `${lines.join('\n')}\n`;
}

/** The report as JSON (one object, pretty-printed). */
export function reportJson(report: CheckReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
