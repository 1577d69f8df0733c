/**
 * Secrets out of recorded traffic and records at rest: environment values, header values, fields
 * named like credentials, strings that look like well-known tokens or private keys, and the
 * values of credential options in command lines.
 */

/** What replaces a secret. */
export const REDACTED = '[redacted]';

const SECRET_KEY =
  /api[-_]?key|apikey|token|secret|password|passwd|passphrase|authorization|cookie|credential|private[-_]?key|access[-_]?key|client[-_]?secret|session[-_]?key/i;
/**
 * Keys whose (string) values are not secrets even though their names look like it: token counts
 * (`maxTokens`, `output_tokens`, `tokenCount`). A bare `token` is a credential.
 */
const NOT_SECRET_KEY =
  /^(?:(?:max|input|output|total|cached|reasoning|prompt|completion)_?tokens?(?:_?count|_?used)?|tokens?_?(?:count|used))$/i;

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

/** Deepest level of a frame a trace keeps; deeper values become this marker. */
const MAX_TRACE_DEPTH = 64;
const TOO_DEEP = '[nested too deep for the trace]';

/** Whether a field or option name names a credential (`apiKey`, `api-key`, `token`…; token counts are not). */
export function isSecretKey(key: string): boolean {
  const name = key.replace(/-/g, '_');
  return SECRET_KEY.test(name) && !NOT_SECRET_KEY.test(name);
}

/** What every token pattern starts with: one scan rules most strings out before the nine patterns. */
const TOKEN_START =
  /-----BEGIN|sk-|gh[pousr]_|github_pat_|xox[abprs]-|AKIA|AIza|eyJ|[Bb][Ee][Aa][Rr][Ee][Rr]|[Bb][Aa][Ss][Ii][Cc]/;

/**
 * Anything in a JSON text that a redaction rule might act on: a credential-like word (in a key, a
 * value or an option), a token-looking start, an `env` or `headers` key, or a `\u` escape (an
 * escaped key or value could hide one of those words from this scan).
 */
const ENV_OR_ESCAPE = /"(?:env|headers)"|\\u/;

/**
 * Whether redacting the value this JSON text encodes could change anything. False means every
 * rule of {@link redactReplacer} and {@link redactValue} (but the trace's length and depth cuts)
 * leaves it as it is, so the text can be stored as it stands: most streamed updates.
 */
export function mayNeedRedaction(json: string): boolean {
  // Three scans are faster than one of the three joined (fewer alternatives tried per position).
  return SECRET_KEY.test(json) || TOKEN_START.test(json) || ENV_OR_ESCAPE.test(json);
}

/**
 * Whether {@link redactValue} would give back the very value `json` encodes: nothing to redact,
 * no string over the trace's length cut, no nesting past its depth cut.
 */
export function unchangedInTrace(json: string): boolean {
  if (json.length > MAX_TRACE_STRING || mayNeedRedaction(json)) return false;
  // Each level of nesting opens with `{` or `[`: fewer of them than the cut means shallower.
  // Counted with `indexOf` (a streamed chunk has a handful): a loop over every character cost a
  // flood of 5,000 chunks ~5 ms, these ~0.4.
  if (json.length <= MAX_TRACE_DEPTH) return true;
  let opening = 0;
  for (const bracket of ['{', '[']) {
    for (let at = json.indexOf(bracket); at !== -1; at = json.indexOf(bracket, at + 1))
      if (++opening > MAX_TRACE_DEPTH) return false;
  }
  return true;
}

/** Replaces token-looking substrings. */
export function redactString(text: string): string {
  if (!TOKEN_START.test(text)) return text;
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
  if (depth > MAX_TRACE_DEPTH) return TOO_DEEP;
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
    else if (typeof item === 'string' && isSecretKey(key)) out[key] = REDACTED;
    else out[key] = redactValue(item, key, depth + 1);
  }
  return out;
}

/** `env` / `headers` entries with their values redacted (one level; the replacer does the rest). */
function redactPairs(value: object): unknown {
  if (Array.isArray(value)) {
    return value.map((item: unknown) =>
      typeof item === 'object' && item !== null && !Array.isArray(item) && 'value' in item
        ? { ...item, value: REDACTED }
        : item,
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = typeof item === 'string' ? REDACTED : item;
  return out;
}

/** Fields of our own records that hold a command line (an agent's, a terminal's). */
const COMMAND_FIELDS = new Set(['agentId', 'agentName', 'command', 'commandText']);

/**
 * A `JSON.stringify` replacer (for `stringifyJson`) that redacts like {@link redactValue} for
 * records at rest — transcripts — but keeps strings whole, has no depth limit, and also redacts
 * credential options in command-line fields.
 *
 * @example
 * stringifyJson(event, redactReplacer);
 */
export function redactReplacer(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === 'string') {
    if (!Array.isArray(this) && isSecretKey(key)) return REDACTED;
    return COMMAND_FIELDS.has(key) ? redactCommandLine(value) : redactString(value);
  }
  if ((key === 'env' || key === 'headers') && typeof value === 'object' && value !== null) {
    return redactPairs(value);
  }
  return value;
}

/** A shell word: unquoted characters and quoted runs, no blanks outside quotes. */
const WORD = /(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g;

function unquote(word: string): string {
  return word.replace(
    /'([^']*)'|"((?:[^"\\]|\\.)*)"/g,
    (_all, single: string | undefined, double: string | undefined) =>
      single ?? (double ?? '').replace(/\\(.)/g, '$1'),
  );
}

/**
 * Redacts credentials in argv words: the value of a credential-named option (`--api-key X`,
 * `--api-key=X`, `-token X`), of a credential-named assignment (`OPENAI_API_KEY=X`), and
 * token-looking strings (`sk-…`, `ghp_…`, `xox…`). `plain` words are checked unquoted.
 */
function redactWords(words: readonly string[], plain: (word: string) => string): string[] {
  const out = [...words];
  for (let i = 0; i < out.length; i++) {
    const word = plain(out[i] as string);
    const option = /^(--?)([A-Za-z0-9_.-]+)(?:=(.*))?$/s.exec(word);
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word);
    if (option && isSecretKey(option[2] as string)) {
      if (option[3] !== undefined) out[i] = `${option[1]}${option[2]}=${REDACTED}`;
      else if (i + 1 < out.length && !plain(out[i + 1] as string).startsWith('-')) out[++i] = REDACTED;
    } else if (assignment && isSecretKey(assignment[1] as string)) {
      out[i] = `${assignment[1]}=${REDACTED}`;
    } else {
      out[i] = redactString(out[i] as string);
    }
  }
  return out;
}

/**
 * An argv with its credentials redacted (see `redactCommandLine`).
 *
 * @example
 * redactArgv(['agent', '--api-key', 'k', 'TOKEN=t']); // ['agent', '--api-key', '[redacted]', 'TOKEN=[redacted]']
 */
export function redactArgv(argv: readonly string[]): string[] {
  return redactWords(argv, (word) => word);
}

/**
 * A command line with its credentials redacted: values of credential-named options and
 * assignments, and token-looking strings. Words keep their quoting and the blanks between them.
 *
 * @example
 * redactCommandLine("my-agent --api-key 'k 1' --model m"); // "my-agent --api-key [redacted] --model m"
 */
export function redactCommandLine(text: string): string {
  const matches = [...text.matchAll(WORD)];
  const words = redactWords(
    matches.map((match) => match[0]),
    unquote,
  );
  let out = '';
  let last = 0;
  matches.forEach((match, i) => {
    out += text.slice(last, match.index) + (words[i] as string);
    last = match.index + match[0].length;
  });
  return out + text.slice(last);
}
