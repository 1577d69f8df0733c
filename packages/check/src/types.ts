/**
 * The checker's vocabulary: a check judges what a run observed and says pass, fail, warn or not
 * applicable, with the rule it rests on and the evidence (a shortened, sanitized frame).
 */

/** `n/a`: the check does not apply (a capability not advertised, a turn skipped by `--offline`). */
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'n/a';

/** What a check rests on: the schema path or the spec's MUST/SHOULD, with a link. */
export interface Rule {
  /** One line: "MUST answer an unknown method with -32601". */
  text: string;
  /** Where it is written (the spec page or the schema definition). */
  url: string;
}

/** The outcome of one check. */
export interface CheckResult {
  name: string;
  title: string;
  status: CheckStatus;
  /** One line for people: what was seen. */
  summary: string;
  rule: Rule;
  /** The offending (or deciding) frame, shortened and sanitized; absent when none applies. */
  evidence?: string;
  /** Measurements (timings in ms, counts). */
  data?: Record<string, number>;
}

/** The whole run. `version` is the report format's version (see docs/check.md). */
export interface CheckReport {
  version: 1;
  /** What was checked (the command line or URL, as given). */
  target: string;
  offline: boolean;
  results: CheckResult[];
  counts: Record<CheckStatus, number>;
}

/** A frame as seen on the wire, with when (ms since the run started) and which way. */
export interface ObservedFrame {
  t: number;
  dir: 'in' | 'out';
  /** Which connection of the run (`v1`, `v2`, `pre-init`…). */
  conn: string;
  frame: JsonObject;
  /** For responses we received: the method of our request they answer. */
  answers?: string;
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
