/**
 * Budgets as ratios to a floor measured in the same run. Every bench suite measures its subject
 * and its floor alternately (A B, then B A, ...), turns each pair into a ratio, and reports the
 * ratio's min/median/max with a verdict on the median. The absolute figures are kept as context
 * only: these machines vary 2x from day to day, a ratio taken minutes apart does not.
 *
 * A suite writes its rows with `reportVerdicts(suite, rows)` (printed, and saved under
 * `.bench-out/verdicts/SUITE.json`); `npm run bench` (bench/run.js) runs every suite and prints all
 * verdicts together.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const VERDICT_DIR = join(ROOT, '.bench-out', 'verdicts');

/** `{ n, min, median, max }` of finite values (NaN fields when there are none). */
export function stats(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { n, min: NaN, median: NaN, max: NaN };
  const mid = Math.floor(n / 2);
  const median = n % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { n, min: sorted[0], median, max: sorted[n - 1] };
}

/**
 * Runs `steps` (an object of name → async function returning a number or an object) `runs` times,
 * alternating their order from one run to the next (A B C, C B A, A B C, ...), so a machine that
 * slows down during the run weighs on every step alike. Returns name → array of results in run
 * order.
 */
export async function alternate(runs, steps, onResult = () => {}) {
  const names = Object.keys(steps);
  const results = Object.fromEntries(names.map((name) => [name, []]));
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const value = await steps[name](run);
      results[name].push(value);
      onResult(name, value, run);
    }
  }
  return results;
}

/**
 * One budget row. `subject` and `floor` are the per-run measurements (same length, same run
 * order, as `alternate` returns them); the ratio is taken pair by pair (subject / floor).
 * `goal`: `{ op: '<=' | '>=', target }` on the ratio; the verdict is on the median ratio.
 * `unit` names the absolute figures (context only), `floorName` says what the floor is.
 */
export function ratioRow({ id, what, floorName, unit, subject, floor, goal, note }) {
  if (subject.length !== floor.length)
    throw new Error(`${id}: ${subject.length} subject vs ${floor.length} floor runs`);
  const ratios = subject.map((value, i) => value / floor[i]);
  const ratio = stats(ratios);
  const pass = goal.op === '<=' ? ratio.median <= goal.target : ratio.median >= goal.target;
  return {
    id,
    what,
    floorName,
    unit,
    goal,
    ratio,
    ratios,
    subject: stats(subject),
    floor: stats(floor),
    pass: Number.isFinite(ratio.median) && pass,
    ...(note ? { note } : {}),
  };
}

/**
 * A budget that is not a ratio to a floor (an absolute bound the issue sets, like "RSS at the end
 * ≤ 200 MB" or "peak RSS over idle ≤ 3x the largest message"): `values` per run, goal on the median.
 */
export function boundRow({ id, what, unit, values, goal, note }) {
  const s = stats(values);
  const pass = goal.op === '<=' ? s.median <= goal.target : s.median >= goal.target;
  return {
    id,
    what,
    unit,
    goal,
    ratio: s,
    ratios: values,
    pass: Number.isFinite(s.median) && pass,
    ...(note ? { note } : {}),
  };
}

const fmt = (v, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const fmtAbs = (v) =>
  Number.isFinite(v)
    ? Math.abs(v) >= 100
      ? Math.round(v).toLocaleString('en-US')
      : v.toPrecision(3)
    : 'n/a';

/** The rows as a table: ratio min/median/max, goal, verdict, and the absolute medians as context. */
export function formatVerdicts(rows) {
  const table = [['budget', 'ratio min / median / max', 'goal', 'verdict', 'context (medians)']];
  for (const row of rows) {
    const r = row.ratio;
    const context = row.floor
      ? `${fmtAbs(row.subject.median)} vs ${row.floorName} ${fmtAbs(row.floor.median)} ${row.unit ?? ''}`.trim()
      : `${row.unit ?? ''}`;
    table.push([
      row.what,
      `${fmt(r.min)} / ${fmt(r.median)} / ${fmt(r.max)}`,
      `${row.goal.op} ${row.goal.target}`,
      row.pass ? 'MET' : 'MISSED',
      context,
    ]);
  }
  const widths = table[0].map((_, c) => Math.max(...table.map((r) => String(r[c]).length)));
  return table
    .map((r, i) => {
      const text = r
        .map((cell, c) => String(cell).padEnd(widths[c]))
        .join('  ')
        .trimEnd();
      return i === 0 ? `${text}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : text;
    })
    .join('\n');
}

/** The machine and its load, written beside every verdict (the load says how much to trust it). */
export function machineInfo() {
  return {
    cpus: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    node: process.version,
    loadAverage: os.loadavg().map((v) => Number(v.toFixed(2))),
  };
}

/** Prints the suite's verdicts and saves them for `npm run bench`'s summary. */
export function reportVerdicts(suite, rows, extra = {}) {
  console.log(`\n${suite}: budgets as ratios to the same run's floor\n`);
  console.log(formatVerdicts(rows));
  mkdirSync(VERDICT_DIR, { recursive: true });
  writeFileSync(
    join(VERDICT_DIR, `${suite}.json`),
    JSON.stringify(
      { suite, date: new Date().toISOString(), machine: machineInfo(), rows, ...extra },
      null,
      2,
    ) + '\n',
  );
}
