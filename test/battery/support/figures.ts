/**
 * The battery's figures: cases push what they measured here, next to its target. With
 * `BATTERY_FIGURES_FILE` set (by `npm run battery`), every figure is appended to that file as one
 * JSON line; `scripts/battery.ts` turns the file into the generated section of
 * `docs/reliability.md`. Nothing is ever typed in by hand.
 */
import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';
import { SIZE } from './size.js';

/** One measured figure. */
export interface Figure {
  /** RELIABILITY.md case id: `A3`, `C1`… */
  case: string;
  /** What was measured, e.g. `agent side: crashes`. */
  name: string;
  value: number | string | boolean;
  /** Unit shown after the value (`ms`, `MiB`, `frames`). */
  unit?: string;
  /** The target, as text (`0`, `≤ 64 MiB`). */
  target?: string;
  /** Whether the value meets the target (absent when the figure has no target). */
  pass?: boolean;
  /** The seed the figure was measured with. */
  seed?: number;
}

/** A figure as written to the file. */
export interface FigureRecord extends Figure {
  size: string;
  at: string;
  /** The test file that measured it (its section of docs/reliability.md follows from it). */
  file?: string;
}

const recorded: FigureRecord[] = [];

/**
 * Records a figure.
 *
 * @example
 * figure({ case: 'C1', name: 'kill→error p50', value: 12, unit: 'ms', target: '≤ 100 ms', pass: 12 <= 100 });
 */
export function figure(f: Figure): void {
  const testFile = expect.getState().testPath;
  const record: FigureRecord = {
    ...f,
    size: SIZE,
    at: new Date().toISOString(),
    ...(testFile ? { file: testFile } : {}),
  };
  recorded.push(record);
  const file = process.env.BATTERY_FIGURES_FILE;
  if (file) appendFileSync(file, JSON.stringify(record) + '\n');
}

/** A figure whose target is "at most `max`". */
export function atMost(f: Omit<Figure, 'value' | 'target' | 'pass'>, value: number, max: number): void {
  figure({ ...f, value, target: `≤ ${max}${f.unit ? ` ${f.unit}` : ''}`, pass: value <= max });
}

/** The figures recorded by this test file so far. */
export function recordedFigures(): readonly FigureRecord[] {
  return recorded;
}

/** The p-th percentile (0–100) of `values`, nearest rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}

type Named = Omit<Figure, 'value' | 'target' | 'pass'>;

/** A count whose target is zero (crashes, escapes, orphans, canaries…). */
export function zero(f: Named, value: number): void {
  figure({ ...f, value, target: '0', pass: value === 0 });
}

/** A yes/no figure whose target is "yes". */
export function holds(f: Named, value: boolean): void {
  figure({ ...f, value, target: 'true', pass: value });
}
