/**
 * Runtime support for the generated validators (`validators.gen.ts`).
 *
 * Every schema definition gets two functions:
 * - `checkX(value)`: strict, pure, agrees with a JSON Schema 2020-12 validator on valid/invalid;
 * - `parseX(value, ctx)`: lenient, applies the schema's leniency annotations and returns the value to
 *   use (repaired in place where needed) or {@link FAIL}.
 */

/** Returned by a parse function when the value is invalid; `ctx.error` says where and why. */
export const FAIL: unique symbol = Symbol('acp-kit.fail');
export type Fail = typeof FAIL;

/** Marks a union member whose discriminator this schema version does not know. */
export const UNKNOWN_VARIANT: unique symbol = Symbol.for('acp-kit.unknownVariant');
declare const UNKNOWN_VALUE: unique symbol;

/**
 * A union member with a discriminator value this schema does not know (sent by a newer peer).
 * It is kept whole; narrow it away with {@link isUnknownVariant} before switching on the tag.
 *
 * @example
 * if (isUnknownVariant(update)) log(`unknown update ${update.sessionUpdate}`);
 * else switch (update.sessionUpdate) { case 'plan': render(update.entries); }
 */
export type UnknownVariant<Tag extends string> = { readonly [K in Tag]: string } & {
  readonly [UNKNOWN_VARIANT]: true;
  readonly [key: string]: unknown;
};

/** A string enum value this schema does not know (for example a new tool kind). */
export type UnknownValue = string & { readonly [UNKNOWN_VALUE]: true };

/** True when `value` is a union member the schema does not know; narrows it out of the union otherwise. */
export function isUnknownVariant<V>(value: V): value is Extract<V, { readonly [UNKNOWN_VARIANT]: true }> {
  return typeof value === 'object' && value !== null && UNKNOWN_VARIANT in value;
}

/** What leniency did to a value: a replaced field, a skipped item, or an unknown variant/value kept. */
export interface Diagnostic {
  /**
   * `defaulted`/`skipped-item`: the schema's leniency annotations; `unknown-*`: kept values a newer
   * schema defines; `tolerated`: a known real-world deviation kept as sent (e.g. `usage_update.used: null`).
   */
  kind: 'defaulted' | 'skipped-item' | 'unknown-variant' | 'unknown-value' | 'tolerated';
  /** Where, as `a.b[2].c` relative to the validated value. */
  path: string;
  message: string;
}

/** Why a value was rejected: the first invalid required field. */
export interface ValidationIssue {
  path: string;
  message: string;
}

type Segment = string | number;

function formatSegment(s: Segment, first: boolean): string {
  if (typeof s === 'number') return `[${s}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(s)) return first ? s : `.${s}`;
  return `[${JSON.stringify(s.length > 64 ? `${s.slice(0, 63)}…` : s)}]`;
}

function formatPath(segments: readonly Segment[]): string {
  let out = '';
  for (const s of segments) out += formatSegment(s, out === '');
  return out;
}

/** `segment` followed by an already formatted path. */
function prefixPath(segment: Segment, path: string): string {
  const head = formatSegment(segment, true);
  if (path === '') return head;
  return path.startsWith('[') ? head + path : `${head}.${path}`;
}

/**
 * Mutable state of one parse: diagnostics and the first error.
 *
 * Generated parsers build paths only when something is reported: a parser records an error or a
 * diagnostic relative to the value it is looking at, and each enclosing parser prefixes its own
 * key on the way out ({@link failedIn}, {@link notedIn}). A valid value is parsed without
 * allocating anything.
 */
export class ParseContext {
  /**
   * Segments prepended to what {@link fail} and {@link note} record. Generated parsers leave it
   * empty (see {@link failedIn}); it is for hand-written callers that report their own findings.
   */
  readonly path: Segment[] = [];
  readonly diagnostics: Diagnostic[] = [];
  error: ValidationIssue | undefined;

  /** Records the first error (at {@link path} plus `key`) and returns {@link FAIL}. */
  fail(message: string, key?: Segment): Fail {
    if (this.error === undefined) {
      this.error = {
        path: formatPath(key === undefined ? this.path : [...this.path, key]),
        message,
      };
    }
    return FAIL;
  }

  /** Records a diagnostic at {@link path} plus `key`. */
  note(kind: Diagnostic['kind'], message: string, key?: Segment): void {
    // Bounded: a hostile peer cannot grow this without limit.
    if (this.diagnostics.length >= 100) return;
    this.diagnostics.push({
      kind,
      path: formatPath(key === undefined ? this.path : [...this.path, key]),
      message,
    });
  }

  /** Generated code: the value under `key` failed. Prefixes the error's path with `key`; returns {@link FAIL}. */
  failedIn(key: Segment): Fail {
    if (this.error !== undefined) this.error.path = prefixPath(key, this.error.path);
    return FAIL;
  }

  /** Generated code: the diagnostics from index `mark` on were recorded under `key`; prefixes their paths. */
  notedIn(mark: number, key: Segment): void {
    const d = this.diagnostics;
    for (let i = mark; i < d.length; i++) d[i]!.path = prefixPath(key, d[i]!.path);
  }
}

export type ParseResult<T> =
  | { ok: true; value: T; diagnostics: Diagnostic[] }
  | { ok: false; error: ValidationIssue; diagnostics: Diagnostic[] };

/** A generated lenient parser. */
export type Parser = (value: unknown, ctx: ParseContext) => unknown;
/** A generated strict checker. */
export type Checker = (value: unknown) => boolean;

/**
 * Runs a generated parser and packages the outcome.
 *
 * @example
 * const r = parseWith(parseSessionNotification, JSON.parse(line).params);
 * if (!r.ok) console.error(r.error.path, r.error.message);
 */
export function parseWith<T>(parser: Parser, value: unknown): ParseResult<T> {
  const ctx = new ParseContext();
  const out = parser(value, ctx);
  if (out === FAIL) {
    return {
      ok: false,
      error: ctx.error ?? { path: '', message: 'invalid value' },
      diagnostics: ctx.diagnostics,
    };
  }
  return { ok: true, value: out as T, diagnostics: ctx.diagnostics };
}

// Helpers the generated code calls. Kept tiny so V8 inlines them.

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Copies a value for a trial parse that may repair it in place. */
export function cloneJson<T>(x: T): T {
  return structuredClone(x);
}

/** Deep equality for JSON values, as JSON Schema `const` compares. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ob = b as Record<string, unknown>;
  const oa = a as Record<string, unknown>;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(ob, k) && jsonEqual(oa[k], ob[k]));
}

/** Length in Unicode code points, as JSON Schema `minLength` counts. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * Number formats used by the schema (Rust integer widths). The 64-bit bounds are the nearest doubles:
 * `JSON.parse("9223372036854775807")` is 2^63, and is accepted as int64.
 */
export const NUMBER_FORMATS: Record<string, (n: number) => boolean> = {
  int32: (n) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647,
  uint16: (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
  uint32: (n) => Number.isInteger(n) && n >= 0 && n <= 4294967295,
  int64: (n) => Number.isInteger(n) && n >= -(2 ** 63) && n <= 2 ** 63,
  uint64: (n) => Number.isInteger(n) && n >= 0 && n <= 2 ** 64,
  double: (n) => Number.isFinite(n),
};
