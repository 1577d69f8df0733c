/**
 * `npm run battery`: runs the reliability and security battery (test/battery, cases A–K of
 * RELIABILITY.md) at full size, one file at a time, and writes the figures the cases measured to
 * the generated section of docs/reliability.md (between the battery markers; the rest of the file
 * is left as it is).
 *
 * Options: `--size ci|full` (default full), `--seed N` (base seed, default the battery's),
 * `--no-docs` (print only), `--only PATTERN` (run only matching test files, e.g. `c-`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FigureRecord } from '../test/battery/support/figures.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DOC = join(ROOT, 'docs/reliability.md');
export const BEGIN = '<!-- battery:begin -->';
export const END = '<!-- battery:end -->';

interface Options {
  size: 'ci' | 'full';
  seed?: string;
  docs: boolean;
  only?: string;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { size: 'full', docs: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = (): string => {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      return value;
    };
    if (arg === '--size') {
      const size = next();
      if (size !== 'ci' && size !== 'full') throw new Error('--size is ci or full');
      options.size = size;
    } else if (arg === '--seed') options.seed = next();
    else if (arg === '--no-docs') options.docs = false;
    else if (arg === '--only') options.only = next();
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write('npm run battery -- [--size ci|full] [--seed N] [--only PATTERN] [--no-docs]\n');
      process.exit(0);
    } else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

/** Vitest's JSON report, the parts we read. */
interface VitestReport {
  numPassedTests?: number;
  numFailedTests?: number;
  testResults?: {
    name: string;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** Removes the colour codes vitest puts in failure messages. */
const stripAnsi = (text: string): string =>
  text.replace(new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g'), '');

const cell = (text: unknown): string => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function formatValue(f: FigureRecord): string {
  const value = typeof f.value === 'number' ? f.value.toLocaleString('en-US') : String(f.value);
  return f.unit ? `${value} ${f.unit}` : value;
}

function status(f: FigureRecord): string {
  if (f.pass === undefined) return '';
  return f.pass ? 'met' : '**not met**';
}

/**
 * A generated part of docs/reliability.md: its markers, the cases it shows, and its headline
 * figures. A run rewrites the parts it measured something for, so `--only r-` refreshes the remote
 * server's figures and leaves those of the last full run alone.
 */
export interface BatterySection {
  begin: string;
  end: string;
  title: string;
  /** Test files whose figures and failures are shown here. */
  files: RegExp;
  /** Cases shown here when a figure does not name its file. */
  cases: RegExp;
  headline: RegExp;
  headlineTitle: string;
}

/** Cases A–K (the reliability brief; headline: the targets issue 10 names). */
export const MAIN_SECTION: BatterySection = {
  begin: BEGIN,
  end: END,
  title: 'Figures of the last `npm run battery` run',
  cases: /^(?!R\d)/,
  files: /\/test\/battery\/(?!r-)[^/]+$/,
  headline: /^(A3|C1|C7|C8|D1|F3|G6|J1|K)$/,
  headlineTitle: 'Targets of issue 10',
};

/** Cases R: the remote server under attack (issue 17). */
export const REMOTE_SECTION: BatterySection = {
  begin: '<!-- battery:remote:begin -->',
  end: '<!-- battery:remote:end -->',
  title: 'Figures of the remote server (cases R) from the last run that ran them',
  cases: /^R\d/,
  files: /\/test\/battery\/r-[^/]+$/,
  headline: /^R\d+$/,
  headlineTitle: 'Targets of issue 17',
};

export const SECTIONS: readonly BatterySection[] = [MAIN_SECTION, REMOTE_SECTION];

/** Whether a figure is shown in `section`: by the file that measured it, else by its case. */
function belongsTo(section: BatterySection, figure: FigureRecord): boolean {
  return figure.file ? section.files.test(figure.file) : section.cases.test(figure.case);
}

/** A row of the figure tables: its cells as written (case, figure, measured, target, status). */
export type FigureRow = readonly [string, string, string, string, string];

function rowOf(f: FigureRecord): FigureRow {
  const name = `${cell(f.name)}${f.seed !== undefined ? ` (seed ${f.seed})` : ''}`;
  return [f.case, name, cell(formatValue(f)), cell(f.target ?? ''), status(f)];
}

/**
 * The rows of the "Every figure, by case" table of `section` in `doc`, and its header line: what a
 * partial run (`--only`) keeps of the last run.
 */
export function previousFigures(
  doc: string,
  section: BatterySection = MAIN_SECTION,
): { header: string; rows: FigureRow[] } | undefined {
  const begin = doc.indexOf(section.begin);
  const end = doc.indexOf(section.end);
  if (begin === -1 || end < begin) return undefined;
  const lines = doc.slice(begin, end).split('\n');
  const header = lines.find((line) => line.startsWith('Generated by')) ?? '';
  const start = lines.indexOf('### Every figure, by case');
  const rows: FigureRow[] = [];
  for (const line of lines.slice(start + 1)) {
    if (start === -1 || line.startsWith('###')) break;
    if (!line.startsWith('|')) continue;
    // Cells are split at pipes that are not escaped (`\|` stays inside a figure's name).
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    if (cells.length !== 5 || cells[0] === 'case' || /^-+$/.test(cells[0] ?? '')) continue;
    rows.push(cells as unknown as FigureRow);
  }
  return { header, rows };
}

/**
 * Renders a generated section from the figures and the test report. `previous` (a partial run)
 * are the section's rows of the last run: kept unless this run measured the same figure again.
 */
export function renderSection(
  allFigures: readonly FigureRecord[],
  report: VitestReport | undefined,
  meta: { size: string; seed: string; commit: string; date: string; only?: string },
  section: BatterySection = MAIN_SECTION,
  previous?: { header: string; rows: readonly FigureRow[] },
): string {
  const figures = allFigures.filter((f) => belongsTo(section, f));
  const results = (report?.testResults ?? [])
    .filter((file) => section.files.test(file.name))
    .flatMap((file) => (file.assertionResults ?? []).map((test) => ({ file: file.name, ...test })));
  const count = (status: string): number | string =>
    report?.testResults ? results.filter((test) => test.status === status).length : '?';
  const lines: string[] = [section.begin, ''];
  lines.push(`## ${section.title}`, '');
  const run =
    `size **${meta.size}**, base seed ${meta.seed}, commit ${meta.commit}, Node ${process.version}, ` +
    `${cpus().length} CPUs. Tests: ${count('passed')} passed, ${count('failed')} failed.`;
  const note =
    'Every value below was measured by the battery itself (test/battery/support/figures.ts); do not edit this section by hand.';
  if (previous && meta.only !== undefined) {
    const kept = previous.header.replace(/ Every value below was measured[\s\S]*$/, '');
    lines.push(
      `${kept} The figures of \`test/battery/${meta.only}*\` were measured again by \`npm run battery -- --only ${meta.only}\` on ${meta.date}: ${run} ${note}`,
      '',
    );
  } else
    lines.push(`Generated by \`npm run battery\` (scripts/battery.ts) on ${meta.date}: ${run} ${note}`, '');
  const fresh = figures.map(rowOf);
  const measured = new Set(fresh.map((row) => `${row[0]}|${row[1]}`));
  const rows = [...(previous?.rows ?? []).filter((row) => !measured.has(`${row[0]}|${row[1]}`)), ...fresh];
  const byCase = rows.sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }));
  const table = (selected: readonly FigureRow[]): void => {
    lines.push('| case | figure | measured | target | status |', '| --- | --- | --- | --- | --- |');
    for (const row of selected) lines.push(`| ${row.join(' | ')} |`);
    lines.push('');
  };
  lines.push(`### ${section.headlineTitle}`, '');
  table(byCase.filter((row) => section.headline.test(row[0]) && row[3] !== ''));
  lines.push('### Every figure, by case', '');
  table(byCase);
  const failed = results
    .filter((t) => t.status === 'failed')
    .map((t) => ({
      file: t.file.slice(ROOT.length + 1),
      name: t.fullName,
      why: t.failureMessages?.[0] ?? '',
    }));
  lines.push('### Cases that failed in this run', '');
  if (failed.length === 0) lines.push('None.', '');
  for (const f of failed) {
    const why = stripAnsi(f.why.split('\n')[0] ?? '').slice(0, 300);
    lines.push(`- \`${f.file}\` › ${cell(f.name)}: ${cell(why)}`);
  }
  lines.push('', section.end);
  return lines.join('\n');
}

const INTRO = `# Reliability and security

What acp-kit guarantees when the other side misbehaves — hostile frames, crashing or hanging
agents, floods, races on the file system, escape sequences, secrets — and how it is checked.

The battery in \`test/battery/\` runs cases A–K (framing, JSON-RPC semantics, process chaos,
backpressure, cancellation races, file system, terminals, permissions, rendering, secrets,
timeouts) against the real components: \`acp agent --demo\` and \`acp run\` as child processes over
real pipes, the client engine with scripted hostile agents (\`test/battery/fixtures/\`), real files.
\`npm test\` runs it at a reduced size (fixed seeds, printed on failure); \`npm run battery\` runs
it at full size and rewrites the section below with the figures it measured.

`;

/** Puts `section` between its markers in `doc` (or appends it), keeping everything else. */
export function replaceSection(doc: string, section: string, markers: BatterySection = MAIN_SECTION): string {
  const begin = doc.indexOf(markers.begin);
  const end = doc.indexOf(markers.end);
  if (begin === -1 || end === -1 || end < begin) return `${doc.trimEnd()}\n\n${section}\n`;
  return doc.slice(0, begin) + section + doc.slice(end + markers.end.length);
}

function main(): number {
  const options = parseArgs(process.argv.slice(2));
  const work = mkdtempSync(join(tmpdir(), 'acp-battery-run-'));
  const figuresFile = join(work, 'figures.jsonl');
  const reportFile = join(work, 'vitest.json');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BATTERY_SIZE: options.size,
    BATTERY_FIGURES_FILE: figuresFile,
  };
  if (options.seed !== undefined) env.BATTERY_SEED = options.seed;
  const target = options.only ? `test/battery/${options.only}` : 'test/battery';
  // One file at a time: the figures (memory, latency) are not disturbed by the battery itself.
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      target,
      '--no-file-parallelism',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reportFile}`,
      ...(options.size === 'full' ? ['--testTimeout=3600000', '--hookTimeout=600000'] : []),
    ],
    { cwd: ROOT, env, stdio: 'inherit' },
  );
  const figures = existsSync(figuresFile)
    ? readFileSync(figuresFile, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as FigureRecord)
    : [];
  const report = existsSync(reportFile)
    ? (JSON.parse(readFileSync(reportFile, 'utf8')) as VitestReport)
    : undefined;
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.trim();
  const meta = {
    size: options.size,
    seed: options.seed ?? process.env.BATTERY_SEED ?? 'default (20260610)',
    commit: commit || 'unknown',
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    ...(options.only !== undefined ? { only: options.only } : {}),
  };
  let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : INTRO;
  // A section is rewritten when this run measured something for it (all of them on a full run);
  // a partial run keeps the section's figures it did not measure again.
  const ran = SECTIONS.filter((part) => !options.only || figures.some((f) => belongsTo(part, f)));
  const sections = ran.map((part) => ({
    part,
    text: renderSection(
      figures,
      report,
      meta,
      part,
      options.only !== undefined ? previousFigures(doc, part) : undefined,
    ),
  }));
  if (options.docs) {
    for (const { part, text } of sections) doc = replaceSection(doc, text, part);
    writeFileSync(DOC, doc);
    // The tables are aligned the way the repo's formatter wants them (format:check stays green).
    spawnSync(process.execPath, [join(ROOT, 'node_modules/prettier/bin/prettier.cjs'), '--write', DOC], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    process.stdout.write(`\nbattery: ${figures.length} figures written to docs/reliability.md\n`);
  } else for (const { text } of sections) process.stdout.write(`\n${text}\n`);
  rmSync(work, { recursive: true, force: true });
  return run.status ?? 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
