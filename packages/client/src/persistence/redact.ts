/**
 * Secrets out of recorded traffic: environment values, header values, fields named like
 * credentials, and strings that look like well-known tokens or private keys.
 */

/** What replaces a secret. */
export const REDACTED = '[redacted]';

const SECRET_KEY =
  /api[-_]?key|apikey|token|secret|password|passwd|passphrase|authorization|cookie|credential|private[-_]?key|access[-_]?key|client[-_]?secret|session[-_]?key/i;
/** Keys whose (string) values are not secrets even though their names look like it (token counts). */
const NOT_SECRET_KEY =
  /^(max|input|output|total|cached|reasoning|prompt|completion)?_?tokens?(_?count|_?used)?$/i;

const TOKEN_PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]{8,}=*/gi,
];

/** Longest string kept in a trace; longer ones are cut (file contents do not belong in traces). */
export const MAX_TRACE_STRING = 16 * 1024;

/** Replaces token-looking substrings. */
export function redactString(text: string): string {
  let out = text;
  for (const pattern of TOKEN_PATTERNS) {
    pattern.lastIndex = 0;
    if (pattern.test(out)) {
      pattern.lastIndex = 0;
      out = out.replace(pattern, REDACTED);
    }
  }
  return out;
}

/**
 * A redacted deep copy of a JSON value.
 *
 * @example
 * redactValue({ env: [{ name: 'KEY', value: 'v' }] }); // { env: [{ name: 'KEY', value: '[redacted]' }] }
 */
export function redactValue(value: unknown, parentKey = '', depth = 0): unknown {
  if (depth > 64) return REDACTED;
  if (typeof value === 'string') {
    const cut =
      value.length > MAX_TRACE_STRING
        ? `${value.slice(0, MAX_TRACE_STRING)}…[${value.length} characters]`
        : value;
    return redactString(cut);
  }
  if (Array.isArray(value)) {
    // `env` and `headers` arrays hold {name, value} pairs: the values are secrets.
    const pairs = parentKey === 'env' || parentKey === 'headers';
    return value.map((item) => {
      if (pairs && typeof item === 'object' && item !== null && !Array.isArray(item) && 'value' in item) {
        return { ...(redactValue(item, '', depth + 1) as object), value: REDACTED };
      }
      return redactValue(item, '', depth + 1);
    });
  }
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  const envObject = parentKey === 'env' || parentKey === 'headers';
  for (const [key, item] of Object.entries(value)) {
    if (envObject && typeof item === 'string') out[key] = REDACTED;
    else if (typeof item === 'string' && SECRET_KEY.test(key) && !NOT_SECRET_KEY.test(key))
      out[key] = REDACTED;
    else out[key] = redactValue(item, key, depth + 1);
  }
  return out;
}
