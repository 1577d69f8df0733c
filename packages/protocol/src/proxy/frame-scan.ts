/**
 * Reading a JSON-RPC frame's routing fields without parsing it, and writing frames from pieces
 * of other frames: what lets a hop of a proxy chain pass a message on without decoding and
 * re-encoding its payload (`params`, `result`, `error` are copied as the text they arrived as).
 *
 * The scan reads the top-level object and only the structure of nested values (strings skipped
 * with `indexOf`, brackets matched, literals checked); the peer at the end of the chain parses the
 * payload fully, as it always does.
 */

/** Where a top-level value sits in the frame's text: `[start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** The routing view of one frame. */
export interface ScannedFrame {
  readonly text: string;
  /** The method, decoded; absent for a response. */
  readonly method: string | undefined;
  /** The method as written (JSON text, quotes included): what a frame built from this one carries. */
  readonly methodText: string | undefined;
  /** The id as written (`7`, `"a"`), absent when the frame has none. */
  readonly idText: string | undefined;
  readonly params: Span | undefined;
  readonly result: Span | undefined;
  readonly error: Span | undefined;
  /** The value of `jsonrpc` as written. */
  readonly jsonrpcText: string | undefined;
  /** Keys other than jsonrpc/id/method/params/result/error (e.g. `_meta` of an envelope). */
  readonly otherKeys: boolean;
  /**
   * `params` read the same way when it is an object and the frame may be an envelope (its method
   * is `proxy/successor` or comes after `params`); {@link innerFrame} reads it in any case.
   */
  readonly inner: ScannedFrame | undefined;
  /** It has a `method` that is not a string. */
  readonly badMethod: boolean;
}

type Fields = { -readonly [K in keyof ScannedFrame]: ScannedFrame[K] };

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COLON = 58;
const COMMA = 44;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** The method whose params are read as a message too (the envelope of proxy chains). */
const ENVELOPE_METHOD = 'proxy/successor';
/** The keys routing reads; any other key is only skipped. */
type RoutingKey = 'method' | 'id' | 'jsonrpc' | 'params' | 'result' | 'error';
const ROUTING_KEYS: readonly RoutingKey[] = ['method', 'id', 'jsonrpc', 'params', 'result', 'error'];
/** The closers a nested value still expects (reused: a scan never runs inside another). */
const closers: number[] = [];

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** End of the string starting at `at` (a quote), just past its closing quote; -1 when unterminated. */
function skipString(text: string, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** End of a literal or number at `at`; -1 when it is neither. */
function skipPrimitive(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === 116) return text.startsWith('true', at) ? at + 4 : -1;
  if (code === 102) return text.startsWith('false', at) ? at + 5 : -1;
  if (code === 110) return text.startsWith('null', at) ? at + 4 : -1;
  NUMBER.lastIndex = at;
  return NUMBER.test(text) ? NUMBER.lastIndex : -1;
}

/** End of the value starting at `at` (no leading space); -1 when it is not well formed. */
function skipValue(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return skipString(text, at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return skipPrimitive(text, at);
  closers.length = 0;
  let i = at;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = skipString(text, i);
      if (i < 0) return -1;
      continue;
    }
    if (code === OPEN_BRACE) closers.push(CLOSE_BRACE);
    else if (code === OPEN_BRACKET) closers.push(CLOSE_BRACKET);
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (closers.pop() !== code) return -1;
      if (closers.length === 0) return i + 1;
    } else if (code !== COLON && code !== COMMA && !isSpace(code)) {
      const end = skipPrimitive(text, i);
      if (end < 0) return -1;
      i = end;
      continue;
    }
    i++;
  }
  return -1;
}

/** The string between `start` (its opening quote) and `end` (past its closing one), decoded. */
function stringAt(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/**
 * The routing key between `start` and `end` (quotes included), or undefined for any other key.
 * Compared where it stands: no string is made for a key (a frame has a dozen) unless it is escaped.
 */
function routingKeyAt(text: string, start: number, end: number): RoutingKey | undefined {
  const length = end - start - 2;
  for (const key of ROUTING_KEYS) if (key.length === length && text.startsWith(key, start + 1)) return key;
  for (let i = start + 1; i < end - 1; i++) {
    if (text.charCodeAt(i) !== BACKSLASH) continue;
    // Escaped (`"meth\u006fd"`): rare; compared decoded, as JSON.parse would read it.
    const key = stringAt(text, start, end);
    return ROUTING_KEYS.find((routing) => routing === key);
  }
  return undefined;
}

/**
 * Reads the top-level object of `text`, noting where each routing field sits; its `params`, when
 * an object, is read the same way (`inner`) in the same pass. Undefined when it is not one
 * well-formed JSON object (an array, a batch, a broken frame), or when `method` is not a string.
 */
export function scanFrame(text: string): ScannedFrame | undefined {
  const fields = emptyFields(text);
  const end = scanObject(text, skipSpace(text, 0), fields, true);
  if (end < 0 || skipSpace(text, end) !== text.length) return undefined;
  // A `method` that is not a string makes no request or notification.
  return fields.badMethod ? undefined : fields;
}

function emptyFields(text: string): Fields {
  return {
    text,
    method: undefined,
    methodText: undefined,
    idText: undefined,
    params: undefined,
    result: undefined,
    error: undefined,
    jsonrpcText: undefined,
    otherKeys: false,
    inner: undefined,
    badMethod: false,
  };
}

/** Reads the object at `at` into `fields`; its end, or -1. */
function scanObject(text: string, at: number, fields: Fields, nested: boolean): number {
  if (text.charCodeAt(at) !== OPEN_BRACE) return -1;
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return -1;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return -1;
    const key = routingKeyAt(text, i, keyEnd);
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return -1;
    const start = skipSpace(text, i + 1);
    let end: number;
    if (
      nested &&
      key === 'params' &&
      text.charCodeAt(start) === OPEN_BRACE &&
      (fields.method === undefined || fields.method === ENVELOPE_METHOD)
    ) {
      const inner = emptyFields(text);
      end = scanObject(text, start, inner, false);
      fields.inner = inner;
    } else {
      end = skipValue(text, start);
    }
    if (end < 0) return -1;
    if (key === undefined) fields.otherKeys = true;
    else note(fields, key, text, start, end);
    i = skipSpace(text, end);
    const code = text.charCodeAt(i);
    if (code === CLOSE_BRACE) return i + 1;
    if (code !== COMMA) return -1;
    i = skipSpace(text, i + 1);
  }
}

function note(fields: Fields, key: RoutingKey, text: string, start: number, end: number): void {
  switch (key) {
    case 'method':
      // Not a string: a frame is then turned down; inside params it is just data.
      if (text.charCodeAt(start) === QUOTE) {
        const method = stringAt(text, start, end);
        // As written when it has no escapes (the common case), else written plainly: one spelling
        // per method, which the conductor compares.
        fields.methodText = method.length === end - start - 2 ? text.slice(start, end) : methodJson(method);
        fields.method = method;
        fields.badMethod = false;
      } else {
        fields.methodText = fields.method = undefined;
        fields.badMethod = true;
      }
      return;
    case 'id':
      fields.idText = text.slice(start, end);
      return;
    case 'jsonrpc':
      fields.jsonrpcText = text.slice(start, end);
      return;
    case 'params':
    case 'result':
    case 'error':
      fields[key] = { start, end };
  }
}

/**
 * `params` of `frame` read as a message (what a `proxy/successor` envelope carries); undefined
 * when it is not an object. The scan read it already when the frame could be an envelope.
 */
export function innerFrame(frame: ScannedFrame): ScannedFrame | undefined {
  if (frame.inner) return frame.inner;
  const span = frame.params;
  if (!span || frame.text.charCodeAt(span.start) !== OPEN_BRACE) return undefined;
  const inner = emptyFields(frame.text);
  return scanObject(frame.text, span.start, inner, false) === span.end ? inner : undefined;
}

/** The text of a span. */
export function spanText(frame: ScannedFrame, span: Span): string {
  return frame.text.slice(span.start, span.end);
}

/** True when `params` is absent, `null`, an object or an array: what JSON-RPC allows. */
export function paramsAllowed(frame: ScannedFrame, span: Span | undefined = frame.params): boolean {
  if (!span) return true;
  const first = frame.text.charCodeAt(span.start);
  return first === OPEN_BRACE || first === OPEN_BRACKET || frame.text.startsWith('null', span.start);
}

/** True when an id as written is a string or a number (JSON-RPC's request ids). */
export function isIdText(idText: string): boolean {
  const first = idText.charCodeAt(0);
  return first === QUOTE || first === 45 || (first >= 48 && first <= 57);
}

/** The params text to put in a frame, or undefined for none (`null` means none, as on the way in). */
export function paramsText(frame: ScannedFrame, span: Span | undefined = frame.params): string | undefined {
  if (!span || frame.text.startsWith('null', span.start)) return undefined;
  return spanText(frame, span);
}

/** A request or notification (`idText` undefined) from its pieces, each already JSON text. */
export function buildMessage(
  idText: string | undefined,
  methodJson: string,
  params: string | undefined,
): string {
  const id = idText === undefined ? '' : `"id":${idText},`;
  return params === undefined
    ? `{"jsonrpc":"2.0",${id}"method":${methodJson}}`
    : `{"jsonrpc":"2.0",${id}"method":${methodJson},"params":${params}}`;
}

/** A response under `idText` with the result or error of `frame`. */
export function buildResponse(idText: string, frame: ScannedFrame): string | undefined {
  if (frame.result) return `{"jsonrpc":"2.0","id":${idText},"result":${spanText(frame, frame.result)}}`;
  if (frame.error) return `{"jsonrpc":"2.0","id":${idText},"error":${spanText(frame, frame.error)}}`;
  return undefined;
}

/** The JSON text of a method name (the common ones need no escaping). */
export function methodJson(method: string): string {
  return JSON.stringify(method);
}
