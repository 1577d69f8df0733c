/**
 * Compiles the ACP JSON schema into TypeScript: types, strict checkers, lenient parsers and a
 * method table. Used by `generate-schema.ts`; the output is committed as `*.gen.ts`.
 *
 * Supported keywords: $ref, type, const, enum, properties, required, additionalProperties, items,
 * allOf, anyOf, oneOf, not, minimum, maximum, minLength, minItems, format, `unevaluatedProperties:
 * true`, the annotation `contentEncoding`, plus the schema's `x-deserialize-*` leniency annotations.
 * Anything else fails generation loudly.
 *
 * The checkers are verified against ajv by `packages/protocol/src/schema/oracle.test.ts` (the real
 * schema) and `scripts/schema-compiler.test.ts` (synthetic schemas for the paths ACP does not use).
 */

export type JsonSchema = boolean | SchemaObject;
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  unevaluatedProperties?: JsonSchema;
  items?: JsonSchema;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  not?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  format?: string;
  /** An annotation in JSON Schema 2020-12 (`base64` in ACP v2): documented, never asserted. */
  contentEncoding?: string;
  default?: unknown;
  description?: string;
  title?: string;
  discriminator?: { propertyName: string };
  'x-method'?: string;
  'x-side'?: string;
  'x-deserialize-default-on-error'?: boolean;
  'x-deserialize-default-on-null'?: boolean;
  'x-deserialize-skip-invalid-items'?: boolean;
  /** acp-kit's own: the lenient parser keeps `null` here (reported as `tolerated`); see WILD_LENIENCY. */
  'x-acp-kit-tolerate-null'?: boolean;
  'x-docs-ignore'?: boolean;
}
export interface SchemaDocument {
  $defs: Record<string, SchemaObject>;
}

const KNOWN_KEYWORDS = new Set([
  '$ref',
  'type',
  'const',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'minimum',
  'maximum',
  'minLength',
  'minItems',
  'format',
  'contentEncoding',
  'default',
  'description',
  'title',
  'discriminator',
  'x-method',
  'x-side',
  'x-deserialize-default-on-error',
  'x-deserialize-default-on-null',
  'x-deserialize-skip-invalid-items',
  'x-acp-kit-tolerate-null',
  'x-docs-ignore',
]);

const NUMBER_FORMATS = new Set(['int32', 'uint16', 'uint32', 'int64', 'uint64', 'double']);
/**
 * String formats are annotations, as JSON Schema 2020-12 treats them by default: a `date-time` or a
 * `uri` that a peer spells its own way is kept, not a reason to reject the message.
 */
const STRING_FORMATS = new Set(['uri', 'date-time', 'regex']);

function refName(ref: string): string {
  const m = /^#\/\$defs\/([A-Za-z0-9_]+)$/.exec(ref);
  if (!m?.[1]) throw new Error(`unsupported $ref ${ref}`);
  return m[1];
}

function lit(value: unknown): string {
  return JSON.stringify(value);
}

function propAccess(obj: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${obj}.${key}` : `${obj}[${lit(key)}]`;
}

function typeTest(x: string, type: string): string {
  switch (type) {
    case 'object':
      return `isObject(${x})`;
    case 'array':
      return `Array.isArray(${x})`;
    case 'string':
      return `typeof ${x} === 'string'`;
    case 'boolean':
      return `typeof ${x} === 'boolean'`;
    case 'null':
      return `${x} === null`;
    case 'integer':
      return `Number.isInteger(${x})`;
    case 'number':
      return `typeof ${x} === 'number'`;
    default:
      throw new Error(`unsupported type ${type}`);
  }
}

function typesOf(node: SchemaObject): string[] | undefined {
  if (node.type === undefined) return undefined;
  return Array.isArray(node.type) ? node.type : [node.type];
}

/** How a union's branches can be told apart. */
interface TagInfo {
  key: string;
  /** Branch index by tag value. */
  tagged: Map<string, number>;
  /** Branches with no const tag (tried when the tag is absent or unknown). */
  untagged: number[];
}

/** A branch's `{ key: { const } }` tag: an object branch that requires a string constant. */
function branchTag(branch: JsonSchema): { key: string; value: string } | undefined {
  if (typeof branch !== 'object' || branch.type !== 'object') return undefined;
  for (const [key, prop] of Object.entries(branch.properties ?? {})) {
    if (typeof prop === 'object' && typeof prop.const === 'string' && branch.required?.includes(key)) {
      return { key, value: prop.const };
    }
  }
  return undefined;
}

function unionTags(branches: JsonSchema[]): TagInfo | undefined {
  let key: string | undefined;
  const tagged = new Map<string, number>();
  const untagged: number[] = [];
  for (const [i, b] of branches.entries()) {
    const tag = branchTag(b);
    if (tag && (key === undefined || key === tag.key)) {
      // Two branches with one tag value cannot be told apart by the tag.
      if (tagged.has(tag.value)) return undefined;
      key = tag.key;
      tagged.set(tag.value, i);
    } else untagged.push(i);
  }
  if (key === undefined || tagged.size === 0) return undefined;
  return { key, tagged, untagged };
}

/** The branch as it is known to be once its tag matched: the tag and the object test dropped. */
function withoutTag(branch: JsonSchema, key: string): JsonSchema {
  if (typeof branch !== 'object') return branch;
  const out: SchemaObject = { ...branch };
  delete out.type;
  const { [key]: _tag, ...props } = branch.properties ?? {};
  if (Object.keys(props).length > 0) out.properties = props;
  else delete out.properties;
  const required = (branch.required ?? []).filter((r) => r !== key);
  if (required.length > 0) out.required = required;
  else delete out.required;
  return out;
}

const ENUM_BRANCH_KEYS = new Set(['type', 'const', 'title', 'description']);

/**
 * A union branch the schema marks as the place for custom or future values (`title: "other"`, or
 * `"unknown"` where `other` is itself a value, as in ToolKind): a plain string next to string
 * constants, or an object whose tag is none of the known ones.
 */
function isOtherBranch(branch: JsonSchema): boolean {
  return typeof branch === 'object' && (branch.title === 'other' || branch.title === 'unknown');
}

interface StringEnum {
  values: string[];
  /** A plain-string branch accepts any other string. */
  open: boolean;
  /** That branch is the schema's `other` (custom or future values), not just "any string". */
  other: boolean;
}

/** `oneOf`/`anyOf` of string constants, optionally with one plain-string "other" branch. */
function stringEnum(branches: JsonSchema[]): StringEnum | undefined {
  const values: string[] = [];
  let open = false;
  let other = false;
  for (const b of branches) {
    if (typeof b !== 'object') return undefined;
    if (!Object.keys(b).every((k) => ENUM_BRANCH_KEYS.has(k))) return undefined;
    if (b.type !== undefined && b.type !== 'string') return undefined;
    if (typeof b.const === 'string') values.push(b.const);
    else if (b.type === 'string' && !('const' in b)) {
      open = true;
      other = isOtherBranch(b);
    } else return undefined;
  }
  return values.length > 0 ? { values, open, other } : undefined;
}

/**
 * The string enum a node's union is, for the lenient parser. An open `oneOf` (a constant and the plain
 * string branch both match a known value) is not one: it goes through the exact union code.
 */
function nodeEnum(node: SchemaObject): StringEnum | undefined {
  const union = node.oneOf ?? node.anyOf;
  const e = union ? stringEnum(union) : undefined;
  return e && !(e.open && node.oneOf) ? e : undefined;
}

function isNullSchema(b: JsonSchema): boolean {
  return (
    typeof b === 'object' &&
    b.type === 'null' &&
    Object.keys(b).every((k) => k === 'type' || k === 'description')
  );
}

function allowsNull(node: JsonSchema): boolean {
  if (node === true) return true;
  if (node === false) return false;
  if (typesOf(node)?.includes('null')) return true;
  return (node.anyOf ?? node.oneOf ?? []).some(isNullSchema);
}

/** The serde default used when a lenient field has no explicit `default`. */
function implicitDefault(node: SchemaObject): { value: unknown } | undefined {
  if ('default' in node) return { value: node.default };
  const types = typesOf(node);
  if (!types || types.includes('null')) return undefined;
  if (types.includes('array')) return { value: [] };
  if (types.includes('object')) return { value: {} };
  return undefined;
}

/** The node without documentation keys, so that equal shapes share one compiled function. */
export function stripDocs(node: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...node };
  for (const k of ['description', 'title', 'x-method', 'x-side', 'x-docs-ignore'] as const) delete out[k];
  return out;
}

/**
 * Keys of a node that do not constrain the node's own value: documentation, and the annotations that
 * the enclosing property applies (`default`, `x-deserialize-*`). `unevaluatedProperties: true` is a
 * no-op (anything else is rejected up front).
 */
const NON_CONSTRAINT_KEYS = new Set([
  'description',
  'title',
  'x-method',
  'x-side',
  'x-docs-ignore',
  'discriminator',
  'default',
  'x-deserialize-default-on-error',
  'x-deserialize-default-on-null',
  'x-deserialize-skip-invalid-items',
  'x-acp-kit-tolerate-null',
  'unevaluatedProperties',
  'contentEncoding',
]);

/** The constraints of a node, with pass-through wrappers (`{allOf: [X]}`) unwrapped. */
function constraints(node: JsonSchema): JsonSchema {
  if (typeof node !== 'object') return node;
  const out: SchemaObject = {};
  for (const [k, v] of Object.entries(node)) {
    if (!NON_CONSTRAINT_KEYS.has(k) && v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  const keys = Object.keys(out);
  if (keys.length === 0) return true;
  if (keys.length === 1 && out.allOf?.length === 1) return constraints(out.allOf[0]!);
  return out;
}

/** How a schema version is compiled; the strict checkers are the same either way. */
export interface CompileOptions {
  /**
   * Type and parse the schema's `other` union branches (custom or future values) like a value of a
   * closed union: `UnknownValue` / `UnknownVariant`, kept whole with an `unknown-*` diagnostic. ACP
   * v2 gives nearly every union such a branch; typed as a plain `string` tag it would defeat
   * narrowing. Off for v1, whose generated types predate it and stay as they are.
   */
  otherAsUnknown?: boolean;
}

export class SchemaCompiler {
  private readonly defs: Record<string, SchemaObject>;
  private readonly otherAsUnknown: boolean;
  private readonly fns: string[] = [];
  private readonly consts: string[] = [];
  private readonly constCache = new Map<string, string>();
  private readonly checkCache = new Map<string, string>();
  private readonly parseCache = new Map<string, string>();
  private readonly noteCache = new Map<JsonSchema, boolean>();
  private counter = 0;

  constructor(doc: SchemaDocument, options: CompileOptions = {}) {
    this.defs = doc.$defs;
    this.otherAsUnknown = options.otherAsUnknown === true;
    this.assertKnownKeywords(doc.$defs, '#/$defs');
  }

  private assertKnownKeywords(node: unknown, at: string): void {
    if (Array.isArray(node)) {
      node.forEach((n, i) => this.assertKnownKeywords(n, `${at}/${i}`));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const isDefsOrProps = at.endsWith('/$defs') || at.endsWith('/properties');
    for (const [k, v] of Object.entries(node)) {
      if (!isDefsOrProps && !KNOWN_KEYWORDS.has(k)) throw new Error(`unsupported keyword ${k} at ${at}`);
      if (k === 'default' || k === 'const' || k === 'enum' || k === 'discriminator') continue;
      if (k === 'format' && typeof v === 'string' && !NUMBER_FORMATS.has(v) && !STRING_FORMATS.has(v)) {
        throw new Error(`unsupported format ${v} at ${at}`);
      }
      if (!isDefsOrProps && k === 'unevaluatedProperties' && v !== true) {
        throw new Error(`unsupported unevaluatedProperties ${lit(v)} at ${at}`);
      }
      if (!isDefsOrProps && k === 'anyOf' && 'oneOf' in node) {
        throw new Error(`unsupported anyOf together with oneOf at ${at}`);
      }
      this.assertKnownKeywords(v, `${at}/${k}`);
    }
  }

  get defNames(): string[] {
    return Object.keys(this.defs);
  }

  /** Whether the lenient parser reports a string outside the enum's constants. */
  private notesUnknownValue(e: StringEnum): boolean {
    return !e.open || (this.otherAsUnknown && e.other);
  }

  /** The index (among the non-null branches) of a tagged union's `other` branch kept as an unknown variant. */
  private otherVariant(branches: JsonSchema[], tags: TagInfo): number | undefined {
    if (!this.otherAsUnknown) return undefined;
    const nonNull = branches.filter((b) => !isNullSchema(b));
    return tags.untagged.find((i) => isOtherBranch(nonNull[i]!));
  }

  /** A parser for the `other` branch that marks what it accepts as an unknown variant. */
  private unknownVariantParser(branch: JsonSchema, key: string): string {
    const name = this.fresh('k');
    const k = propAccess('r', key);
    this.fns.push(
      [
        `function ${name}(x: any, c: ParseContext): unknown {`,
        `  const r: any = ${this.parser(branch)}(x, c);`,
        '  if (r === FAIL) return FAIL;',
        `  c.note('unknown-variant', 'unknown ${key} ' + JSON.stringify(String(${k}).slice(0, 64)));`,
        '  r[UNKNOWN_VARIANT] = true;',
        '  return r;',
        '}',
      ].join('\n'),
    );
    return name;
  }

  private fresh(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter}`;
  }

  /** A module-level `Set` of strings, so that generated code never builds one per call. */
  private stringSet(values: string[]): string {
    const key = lit(values);
    let name = this.constCache.get(key);
    if (!name) {
      name = this.fresh('S');
      this.constCache.set(key, name);
      this.consts.push(`const ${name}: ReadonlySet<string> = new Set(${key});`);
    }
    return name;
  }

  /** Whether parsing `node` can record a diagnostic (so callers must re-root the diagnostics' paths). */
  private mayNote(node: JsonSchema): boolean {
    if (typeof node !== 'object') return false;
    const cached = this.noteCache.get(node);
    if (cached !== undefined) return cached;
    this.noteCache.set(node, true); // conservative while in progress (the schema has no cycles)
    let result = false;
    const union = node.oneOf ?? node.anyOf;
    const enumInfo = nodeEnum(node);
    if (enumInfo) result = this.notesUnknownValue(enumInfo);
    else {
      const parts: JsonSchema[] = [...(node.allOf ?? [])];
      if (node.$ref) parts.push(this.defs[refName(node.$ref)]!);
      if (node.items !== undefined) parts.push(node.items);
      if (node.additionalProperties !== undefined) parts.push(node.additionalProperties);
      for (const p of Object.values(node.properties ?? {})) {
        if (
          typeof p === 'object' &&
          (p['x-deserialize-default-on-error'] || p['x-deserialize-skip-invalid-items'])
        ) {
          result = true;
        }
        parts.push(p);
      }
      if (union) {
        const tags = unionTags(union.filter((b) => !isNullSchema(b)));
        if (tags && (tags.untagged.length === 0 || this.otherVariant(union, tags) !== undefined)) {
          result = true;
        }
        parts.push(...union);
      }
      result ||= parts.some((p) => this.mayNote(p));
    }
    this.noteCache.set(node, result);
    return result;
  }

  // ---------------------------------------------------------------- strict checkers

  /** Returns the name of a `(x) => boolean` function checking `node` exactly as JSON Schema does. */
  checker(schema: JsonSchema): string {
    const node = constraints(schema);
    if (node === true) return 'alwaysTrue';
    if (node === false) return 'alwaysFalse';
    if (node.$ref && Object.keys(node).length === 1) return `check${refName(node.$ref)}`;
    const key = lit(node);
    const cached = this.checkCache.get(key);
    if (cached) return cached;
    const name = this.fresh('c');
    this.checkCache.set(key, name);
    this.fns.push(this.checkerBody(name, node));
    return name;
  }

  private checkerBody(name: string, node: SchemaObject): string {
    const lines: string[] = [];
    const types = typesOf(node);
    if (node.$ref) lines.push(`if (!check${refName(node.$ref)}(x)) return false;`);
    if (types) lines.push(`if (!(${types.map((t) => typeTest('x', t)).join(' || ')})) return false;`);
    if ('const' in node) {
      const c = node.const;
      lines.push(
        typeof c === 'object' && c !== null
          ? `if (!jsonEqual(x, ${lit(c)})) return false;`
          : `if (x !== ${lit(c)}) return false;`,
      );
    }
    if (node.enum) lines.push(`if (!${lit(node.enum)}.some((e) => jsonEqual(x, e))) return false;`);
    if (node.minimum !== undefined)
      lines.push(`if (typeof x === 'number' && x < ${node.minimum}) return false;`);
    if (node.maximum !== undefined)
      lines.push(`if (typeof x === 'number' && x > ${node.maximum}) return false;`);
    if (node.minLength !== undefined) {
      lines.push(`if (typeof x === 'string' && codePointLength(x) < ${node.minLength}) return false;`);
    }
    if (node.minItems !== undefined)
      lines.push(`if (Array.isArray(x) && x.length < ${node.minItems}) return false;`);
    if (node.format && NUMBER_FORMATS.has(node.format)) {
      lines.push(`if (typeof x === 'number' && !NUMBER_FORMATS[${lit(node.format)}]!(x)) return false;`);
    }
    const props = node.properties ?? {};
    const required = node.required ?? [];
    const addl = node.additionalProperties;
    if (Object.keys(props).length > 0 || required.length > 0 || (addl !== undefined && addl !== true)) {
      const isObj = types?.length === 1 && types[0] === 'object';
      const pad = isObj ? '' : '  ';
      if (!isObj) lines.push('if (isObject(x)) {');
      for (const r of required) lines.push(`${pad}if (${propAccess('x', r)} === undefined) return false;`);
      for (const [k, p] of Object.entries(props)) {
        const fn = this.checker(p);
        if (fn === 'alwaysTrue') continue;
        const acc = propAccess('x', k);
        lines.push(
          required.includes(k)
            ? `${pad}if (!${fn}(${acc})) return false;`
            : `${pad}if (${acc} !== undefined && !${fn}(${acc})) return false;`,
        );
      }
      if (addl !== undefined && addl !== true) {
        const fn = this.checker(addl);
        const known = Object.keys(props);
        lines.push(`${pad}for (const k of Object.keys(x)) {`);
        lines.push(
          known.length > 0
            ? `${pad}  if (!${this.stringSet(known)}.has(k) && !${fn}(x[k])) return false;`
            : `${pad}  if (!${fn}(x[k])) return false;`,
        );
        lines.push(`${pad}}`);
      }
      if (!isObj) lines.push('}');
    }
    if (node.items !== undefined && node.items !== true) {
      const fn = this.checker(node.items);
      lines.push(
        `if (Array.isArray(x)) { for (let i = 0; i < x.length; i++) if (!${fn}(x[i])) return false; }`,
      );
    }
    for (const part of node.allOf ?? []) lines.push(`if (!${this.checker(part)}(x)) return false;`);
    if (node.anyOf) lines.push(...this.unionCheckLines(node.anyOf, false));
    if (node.oneOf) lines.push(...this.unionCheckLines(node.oneOf, true));
    if (node.not !== undefined) lines.push(`if (${this.checker(node.not)}(x)) return false;`);
    lines.push('return true;');
    return `function ${name}(x: any): boolean {\n  ${lines.join('\n  ')}\n}`;
  }

  private unionCheckLines(branches: JsonSchema[], exactlyOne: boolean): string[] {
    // A string enum: a set lookup instead of one call per constant.
    const e = stringEnum(branches);
    if (e && !e.open && new Set(e.values).size === e.values.length) {
      return [`if (typeof x !== 'string' || !${this.stringSet(e.values)}.has(x)) return false;`];
    }
    if (e?.open && !exactlyOne) return [`if (typeof x !== 'string') return false;`];
    // A tagged union: only the branch named by the tag can match among the tagged ones.
    const tags = unionTags(branches);
    if (tags) {
      const k = propAccess('x', tags.key);
      const t = this.fresh('t');
      const cases = [...tags.tagged].map(
        ([value, i]) =>
          `    case ${lit(value)}: return ${this.checker(withoutTag(branches[i]!, tags.key))}(x);`,
      );
      this.fns.push(
        `function ${t}(x: any): boolean {\n  if (!isObject(x)) return false;\n  switch (${k}) {\n${cases.join('\n')}\n  }\n  return false;\n}`,
      );
      const rest = tags.untagged.map((i) => `${this.checker(branches[i]!)}(x)`);
      if (!exactlyOne) return [`if (!(${[`${t}(x)`, ...rest].join(' || ')})) return false;`];
      if (rest.length === 0) return [`if (!${t}(x)) return false;`];
      return [
        `{ let n = ${t}(x) ? 1 : 0; ${rest.map((r) => `if (${r}) n++;`).join(' ')} if (n !== 1) return false; }`,
      ];
    }
    const fns = branches.map((b) => `${this.checker(b)}(x)`);
    if (!exactlyOne) return [`if (!(${fns.join(' || ')})) return false;`];
    return [`{ let n = 0; ${fns.map((f) => `if (${f}) n++;`).join(' ')} if (n !== 1) return false; }`];
  }

  // ---------------------------------------------------------------- lenient parsers

  /**
   * Returns the name of a `(x, c) => value | FAIL` lenient parser for `node`.
   *
   * Paths are built only when something goes wrong: a failing child makes its parent call
   * `c.failedIn(key)`, and diagnostics recorded below a child are re-rooted with `c.notedIn(mark, key)`,
   * so that a valid value is parsed without allocating.
   */
  parser(schema: JsonSchema): string {
    const node = constraints(schema);
    if (node === true) return 'parseAny';
    if (node === false) return 'parseNever';
    if (node.$ref && Object.keys(node).length === 1) return `parse${refName(node.$ref)}`;
    const key = lit(node);
    const cached = this.parseCache.get(key);
    if (cached) return cached;
    const name = this.fresh('p');
    this.parseCache.set(key, name);
    this.fns.push(
      `function ${name}(x: any, c: ParseContext): unknown {\n  ${this.parserLines(node).join('\n  ')}\n}`,
    );
    return name;
  }

  private parserLines(node: SchemaObject): string[] {
    const lines: string[] = [];
    const types = typesOf(node);
    const union = node.oneOf ?? node.anyOf;
    const enumInfo = nodeEnum(node);

    if (enumInfo) {
      const others = Object.keys(node).filter((k) => k !== 'oneOf' && k !== 'anyOf');
      if (others.length > 0) throw new Error(`unsupported string enum with ${others.join(', ')}`);
      // Open enum: a string we do not know is kept and reported, never rejected.
      lines.push(`if (typeof x !== 'string') return c.fail('expected a string');`);
      if (this.notesUnknownValue(enumInfo)) {
        lines.push(
          `if (!${this.stringSet(enumInfo.values)}.has(x)) c.note('unknown-value', 'unknown value ' + JSON.stringify(x.slice(0, 64)));`,
        );
      }
      lines.push('return x;');
      return lines;
    }
    if (node.$ref) {
      lines.push(`x = parse${refName(node.$ref)}(x, c);`, 'if (x === FAIL) return FAIL;');
    }
    if (types) {
      lines.push(
        `if (!(${types.map((t) => typeTest('x', t)).join(' || ')})) return c.fail('expected ${types.join(' or ')}');`,
      );
    }
    if ('const' in node) {
      const c = node.const;
      lines.push(
        typeof c === 'object' && c !== null
          ? `if (!jsonEqual(x, ${lit(c)})) return c.fail('expected ${lit(c).replace(/'/g, "\\'")}');`
          : `if (x !== ${lit(c)}) return c.fail(${lit(`expected ${lit(c)}`)});`,
      );
    }
    if (node.enum)
      lines.push(
        `if (!${lit(node.enum)}.some((e) => jsonEqual(x, e))) return c.fail('not an allowed value');`,
      );
    if (node.minimum !== undefined) {
      lines.push(
        `if (typeof x === 'number' && x < ${node.minimum}) return c.fail('must be >= ${node.minimum}');`,
      );
    }
    if (node.maximum !== undefined) {
      lines.push(
        `if (typeof x === 'number' && x > ${node.maximum}) return c.fail('must be <= ${node.maximum}');`,
      );
    }
    if (node.minLength !== undefined) {
      lines.push(
        `if (typeof x === 'string' && codePointLength(x) < ${node.minLength}) return c.fail('must have at least ${node.minLength} characters');`,
      );
    }
    if (node.minItems !== undefined) {
      lines.push(
        `if (Array.isArray(x) && x.length < ${node.minItems}) return c.fail('must have at least ${node.minItems} item${node.minItems === 1 ? '' : 's'}');`,
      );
    }
    if (node.format && NUMBER_FORMATS.has(node.format)) {
      lines.push(
        `if (typeof x === 'number' && !NUMBER_FORMATS[${lit(node.format)}]!(x)) return c.fail('not a valid ${node.format}');`,
      );
    }
    const props = node.properties ?? {};
    const required = node.required ?? [];
    const addl = node.additionalProperties;
    if (Object.keys(props).length > 0 || required.length > 0 || (addl !== undefined && addl !== true)) {
      const isObj = types?.length === 1 && types[0] === 'object';
      const pad = isObj ? '' : '  ';
      if (!isObj) lines.push('if (isObject(x)) {');
      for (const r of required) {
        lines.push(
          `${pad}if (${propAccess('x', r)} === undefined) return c.fail('missing required field', ${lit(r)});`,
        );
      }
      for (const [k, p] of Object.entries(props)) {
        lines.push(...this.propertyLines(k, p, required.includes(k)).map((l) => `${pad}${l}`));
      }
      if (addl !== undefined && addl !== true) {
        const fn = this.parser(addl);
        const known = Object.keys(props);
        const note = this.mayNote(addl);
        lines.push(`${pad}for (const k of Object.keys(x)) {`);
        if (known.length > 0) lines.push(`${pad}  if (${this.stringSet(known)}.has(k)) continue;`);
        if (note) lines.push(`${pad}  const m = c.diagnostics.length;`);
        lines.push(`${pad}  const r = ${fn}(x[k], c);`);
        lines.push(`${pad}  if (r === FAIL) return c.failedIn(k);`);
        lines.push(`${pad}  if (r !== x[k]) x[k] = r;`);
        if (note) lines.push(`${pad}  if (c.diagnostics.length !== m) c.notedIn(m, k);`);
        lines.push(`${pad}}`);
      }
      if (!isObj) lines.push('}');
    }
    if (node.items !== undefined && node.items !== true) lines.push(...this.itemsLines(node.items, false));
    for (const part of node.allOf ?? []) {
      lines.push(`x = ${this.parser(part)}(x, c);`, 'if (x === FAIL) return FAIL;');
    }
    if (union) {
      const unionLines = this.unionLines(union, node.oneOf !== undefined);
      if (node.not === undefined) return [...lines, ...unionLines];
      // The union returns; what follows it runs in the caller.
      const u = this.fresh('u');
      this.fns.push(`function ${u}(x: any, c: ParseContext): unknown {\n  ${unionLines.join('\n  ')}\n}`);
      lines.push(`x = ${u}(x, c);`, 'if (x === FAIL) return FAIL;');
    }
    if (node.not !== undefined)
      lines.push(
        `if (${this.checker(node.not)}(x)) return c.fail('matches a shape that is not allowed here');`,
      );
    lines.push('return x;');
    return lines;
  }

  private itemsLines(items: JsonSchema, skipInvalid: boolean): string[] {
    const fn = this.parser(items);
    if (fn === 'parseAny') return [];
    const note = this.mayNote(items);
    if (!skipInvalid) {
      return [
        'if (Array.isArray(x)) {',
        '  for (let i = 0; i < x.length; i++) {',
        ...(note ? ['    const m = c.diagnostics.length;'] : []),
        `    const r = ${fn}(x[i], c);`,
        '    if (r === FAIL) return c.failedIn(i);',
        '    if (r !== x[i]) x[i] = r;',
        ...(note ? ['    if (c.diagnostics.length !== m) c.notedIn(m, i);'] : []),
        '  }',
        '}',
      ];
    }
    // Invalid items are dropped (with whatever they noted); the array is copied only when one is.
    return [
      'if (Array.isArray(x)) {',
      '  let kept: unknown[] | undefined;',
      '  for (let i = 0; i < x.length; i++) {',
      '    const m = c.diagnostics.length;',
      `    const r = ${fn}(x[i], c);`,
      '    if (r === FAIL) {',
      "      c.error = undefined; c.diagnostics.length = m; c.note('skipped-item', 'invalid item skipped', i);",
      '      kept ??= x.slice(0, i);',
      '      continue;',
      '    }',
      ...(note ? ['    if (c.diagnostics.length !== m) c.notedIn(m, i);'] : []),
      '    if (kept) kept.push(r);',
      '    else if (r !== x[i]) x[i] = r;',
      '  }',
      '  if (kept) x = kept;',
      '}',
    ];
  }

  private propertyLines(key: string, prop: JsonSchema, isRequired: boolean): string[] {
    const acc = propAccess('x', key);
    const lines: string[] = [];
    if (typeof prop !== 'object') {
      if (prop === false)
        lines.push(`if (${acc} !== undefined) return c.fail('field not allowed', ${lit(key)});`);
      return lines;
    }
    const dflt = implicitDefault(prop);
    // A default the schema itself rejects (`[]` where at least one item is required) repairs nothing.
    const defaultValid = !(
      Array.isArray(dflt?.value) &&
      prop.minItems !== undefined &&
      dflt.value.length < prop.minItems
    );
    const onError = prop['x-deserialize-default-on-error'] === true && defaultValid;
    const onNull = prop['x-deserialize-default-on-null'] === true && !allowsNull(prop) && defaultValid;
    const tolerateNull = prop['x-acp-kit-tolerate-null'] === true && !allowsNull(prop);
    const skip = prop['x-deserialize-skip-invalid-items'] === true;
    const applyDefault = dflt ? `${acc} = ${lit(dflt.value)};` : `delete ${acc};`;
    // A skip-invalid array: parse the element type with skipping, the rest of the node normally;
    // `minItems` counts the items that were kept.
    let fn: string;
    if (skip && prop.items !== undefined) {
      const { items, minItems, ...rest } = prop;
      const restFn = this.parser(rest);
      const name = this.fresh('s');
      const restLines = restFn === 'parseAny' ? [] : [`x = ${restFn}(x, c);`, 'if (x === FAIL) return FAIL;'];
      const countLines =
        minItems === undefined
          ? []
          : [
              `if (Array.isArray(x) && x.length < ${minItems}) return c.fail('must have at least ${minItems} valid item${minItems === 1 ? '' : 's'}');`,
            ];
      this.fns.push(
        `function ${name}(x: any, c: ParseContext): unknown {\n  ${[...restLines, ...this.itemsLines(items, true), ...countLines, 'return x;'].join('\n  ')}\n}`,
      );
      fn = name;
    } else {
      fn = this.parser(prop);
    }
    if (fn === 'parseAny') return lines;
    const note = skip || this.mayNote(prop);
    const body: string[] = [];
    if (onError || note) body.push('const m = c.diagnostics.length;');
    body.push(`const r = ${fn}(${acc}, c);`);
    if (onError) {
      const msg = dflt ? 'invalid value replaced by its default' : 'invalid value dropped';
      body.push(
        `if (r === FAIL) { c.error = undefined; c.diagnostics.length = m; c.note('defaulted', ${lit(msg)}, ${lit(key)}); ${applyDefault} }`,
      );
      body.push(`else {`);
      body.push(`  if (r !== ${acc}) ${acc} = r;`);
      if (note) body.push(`  if (c.diagnostics.length !== m) c.notedIn(m, ${lit(key)});`);
      body.push('}');
    } else {
      body.push(`if (r === FAIL) return c.failedIn(${lit(key)});`);
      body.push(`if (r !== ${acc}) ${acc} = r;`);
      if (note) body.push(`if (c.diagnostics.length !== m) c.notedIn(m, ${lit(key)});`);
    }
    if (tolerateNull) {
      lines.push(`if (${acc} === null) c.note('tolerated', 'null kept (sent by real agents)', ${lit(key)});`);
      lines.push(`else if (${acc} !== undefined) {`);
    } else if (onNull) {
      lines.push(`if (${acc} === null) ${applyDefault}`);
      lines.push(`else if (${acc} !== undefined) {`);
    } else if (!isRequired) {
      lines.push(`if (${acc} !== undefined) {`);
    } else {
      lines.push('{');
    }
    lines.push(...body.map((l) => `  ${l}`), '}');
    return lines;
  }

  private unionLines(branches: JsonSchema[], exactlyOne: boolean): string[] {
    const lines: string[] = [];
    const nonNull = branches.filter((b) => !isNullSchema(b));
    if (nonNull.length < branches.length) lines.push('if (x === null) return x;');
    if (nonNull.length === 1) {
      lines.push(`return ${this.parser(nonNull[0]!)}(x, c);`);
      return lines;
    }
    const tags = unionTags(nonNull);
    if (tags && tags.untagged.length <= 1) {
      const k = propAccess('x', tags.key);
      const fallback = tags.untagged[0] === undefined ? undefined : nonNull[tags.untagged[0]]!;
      const fallbackParse = fallback === undefined ? undefined : this.parser(fallback);
      lines.push(
        fallbackParse === undefined
          ? `if (!isObject(x)) return c.fail('expected object');`
          : `if (!isObject(x)) return ${fallbackParse}(x, c);`,
      );
      lines.push(`switch (${k}) {`);
      for (const [value, i] of tags.tagged) {
        // Past the switch, the tag and the object test are known to hold.
        const known = withoutTag(nonNull[i]!, tags.key);
        if (fallback === undefined) {
          // Distinct tags: at most one branch can match, so anyOf and oneOf agree.
          lines.push(`  case ${lit(value)}: return ${this.parser(known)}(x, c);`);
        } else if (!exactlyOne) {
          // The tag names a branch, but the value may be valid through the untagged one instead.
          lines.push(
            `  case ${lit(value)}: return ${this.checker(known)}(x) || !${this.checker(fallback)}(x) ? ${this.parser(known)}(x, c) : ${fallbackParse}(x, c);`,
          );
        } else {
          lines.push(`  case ${lit(value)}: return ${this.exactlyOneOf([known, fallback])}(x, c);`);
        }
      }
      lines.push('}');
      if (fallback !== undefined && this.otherVariant(nonNull, tags) !== undefined) {
        // The schema's `other` branch: a newer peer's (or an extension's) variant, kept whole.
        lines.push(`return ${this.unknownVariantParser(fallback, tags.key)}(x, c);`);
      } else if (fallbackParse !== undefined) {
        lines.push(`return ${fallbackParse}(x, c);`);
      } else {
        // A closed union whose tag we do not know: a newer peer's variant, kept whole.
        lines.push(
          `if (typeof ${k} !== 'string') return c.fail('missing or invalid discriminator', ${lit(tags.key)});`,
        );
        lines.push(`c.note('unknown-variant', 'unknown ${tags.key} ' + JSON.stringify(${k}.slice(0, 64)));`);
        lines.push('x[UNKNOWN_VARIANT] = true;');
        lines.push('return x;');
      }
      return lines;
    }
    if (exactlyOne) {
      lines.push(`return ${this.exactlyOneOf(nonNull)}(x, c);`);
      return lines;
    }
    // anyOf: the first branch that is valid as it stands wins; otherwise the first that a lenient
    // parse of a copy accepts.
    const checks = nonNull.map((b) => this.checker(b));
    const other = tags ? this.otherVariant(nonNull, tags) : undefined;
    const parsers = nonNull.map((b, i) =>
      i === other ? this.unknownVariantParser(b, tags!.key) : this.parser(b),
    );
    checks.forEach((ck, i) => lines.push(`if (${ck}(x)) return ${parsers[i]}(x, c);`));
    lines.push('const mark = c.diagnostics.length;');
    for (const p of parsers) {
      lines.push(
        `{ const r = ${p}(cloneJson(x), c); if (r !== FAIL) return r; c.error = undefined; c.diagnostics.length = mark; }`,
      );
    }
    lines.push(`return c.fail('does not match any allowed shape');`);
    return lines;
  }

  /**
   * A parser for an untagged `oneOf`: a value valid for exactly one branch is parsed by it; one valid
   * for several is rejected; otherwise the first branch whose lenient parse of a copy gives a value
   * that no other branch also accepts wins.
   */
  private exactlyOneOf(branches: JsonSchema[]): string {
    const checks = branches.map((b) => this.checker(b));
    const parsers = branches.map((b) => this.parser(b));
    const name = this.fresh('o');
    const lines = ['let hit = -1;'];
    checks.forEach((ck, i) => {
      lines.push(
        `if (${ck}(x)) { if (hit >= 0) return c.fail('matches more than one allowed shape'); hit = ${i}; }`,
      );
    });
    lines.push('switch (hit) {');
    parsers.forEach((p, i) => lines.push(`  case ${i}: return ${p}(x, c);`));
    lines.push('}');
    lines.push('const mark = c.diagnostics.length;');
    parsers.forEach((p, i) => {
      const others = checks.filter((_, j) => j !== i).map((ck) => `!${ck}(r)`);
      const unique = others.length > 0 ? ` && ${others.join(' && ')}` : '';
      lines.push(
        `{ const r = ${p}(cloneJson(x), c); if (r !== FAIL${unique}) return r; c.error = undefined; c.diagnostics.length = mark; }`,
      );
    });
    lines.push(`return c.fail('does not match exactly one allowed shape');`);
    this.fns.push(`function ${name}(x: any, c: ParseContext): unknown {\n  ${lines.join('\n  ')}\n}`);
    return name;
  }

  // ---------------------------------------------------------------- output

  validatorsModule(header: string): string {
    const exportsOut: string[] = [];
    for (const name of this.defNames) {
      const body = stripDocs(this.defs[name]!);
      exportsOut.push(
        `/** Strict check of {@link T.${name}}: agrees with JSON Schema on valid/invalid. */\nexport function check${name}(x: unknown): boolean {\n  return ${this.checker(body)}(x);\n}`,
        `/** Lenient parse of {@link T.${name}}: repairs per the schema's leniency rules, or returns FAIL. */\nexport function parse${name}(x: unknown, c: ParseContext): unknown {\n  return ${this.parser(body)}(x, c);\n}`,
      );
    }
    const prelude = [
      '/* eslint-disable */',
      '// @ts-nocheck -- generated code, verified against ajv by the oracle tests.',
      "import type * as T from './types.gen.js';",
      `import { FAIL, UNKNOWN_VARIANT, ParseContext, isObject, cloneJson, jsonEqual, codePointLength, NUMBER_FORMATS } from '${this.runtimeImport}';`,
      '',
      'function alwaysTrue(_x: unknown): boolean {\n  return true;\n}',
      'function alwaysFalse(_x: unknown): boolean {\n  return false;\n}',
      'function parseAny(x: unknown, _c: ParseContext): unknown {\n  return x;\n}',
      "function parseNever(_x: unknown, c: ParseContext): unknown {\n  return c.fail('no value is allowed here');\n}",
    ].join('\n');
    return `${[header, prelude, ...this.consts, ...exportsOut, ...this.fns].join('\n\n')}\n`;
  }

  runtimeImport = '../runtime.js';
}

// ------------------------------------------------------------------ TypeScript types

function docComment(text: string | undefined, indent: string): string {
  if (!text) return '';
  const body = text
    .replace(/\*\//g, '*\\/')
    .split('\n')
    .map((l) => `${indent} *${l ? ` ${l}` : ''}`)
    .join('\n');
  return `${indent}/**\n${body}\n${indent} */\n`;
}

function propKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : lit(key);
}

/** Emits TypeScript types for schema definitions. */
export class TypeEmitter {
  private readonly otherAsUnknown: boolean;

  constructor(
    private readonly defs: Record<string, SchemaObject>,
    options: CompileOptions = {},
  ) {
    this.otherAsUnknown = options.otherAsUnknown === true;
  }

  typeOf(node: JsonSchema, indent = ''): string {
    if (node === true) return 'unknown';
    if (node === false) return 'never';
    const parts: string[] = [];
    if (node.$ref) parts.push(refName(node.$ref));
    const union = node.oneOf ?? node.anyOf;
    const types = typesOf(node);
    const hasObjectShape = node.properties !== undefined || node.additionalProperties !== undefined;
    if ('const' in node) parts.push(lit(node.const));
    else if (node.enum) parts.push(node.enum.map(lit).join(' | '));
    else if (types && !(union && types.length === 1 && types[0] === 'object' && !hasObjectShape)) {
      parts.push(this.basicType(node, types, indent));
    } else if (hasObjectShape) {
      parts.push(this.objectType(node, indent));
    }
    for (const part of node.allOf ?? []) parts.push(this.typeOf(part, indent));
    if (union) parts.push(`(${this.unionType(union, indent)})`);
    if (parts.length === 0) return 'unknown';
    return parts.length === 1 ? parts[0]! : parts.join(' & ');
  }

  private basicType(node: SchemaObject, types: string[], indent: string): string {
    return types
      .map((t) => {
        switch (t) {
          case 'object':
            return this.objectType(node, indent);
          case 'array':
            return `Array<${node.items === undefined ? 'unknown' : this.typeOf(node.items, indent)}>`;
          case 'integer':
          case 'number':
            return 'number';
          default:
            return t;
        }
      })
      .join(' | ');
  }

  private objectType(node: SchemaObject, indent: string): string {
    const props = Object.entries(node.properties ?? {});
    const addl = node.additionalProperties;
    if (props.length === 0) {
      if (addl === undefined || addl === true) return '{ [key: string]: unknown }';
      return `{ [key: string]: ${this.typeOf(addl, indent)} }`;
    }
    const inner = `${indent}  `;
    const lines = props.map(([k, p]) => {
      const optional = !(node.required ?? []).includes(k);
      const doc = typeof p === 'object' ? docComment(p.description, inner) : '';
      let type = k === '_meta' ? '{ [key: string]: unknown } | null' : this.typeOf(p, inner);
      if (typeof p === 'object' && p['x-acp-kit-tolerate-null'] === true && !allowsNull(p)) type += ' | null';
      return `${doc}${inner}${propKey(k)}${optional ? '?' : ''}: ${type};`;
    });
    if (addl !== undefined && addl !== true)
      lines.push(`${inner}[key: string]: ${this.typeOf(addl, inner)};`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }

  private unionType(branches: JsonSchema[], indent: string): string {
    const e = stringEnum(branches);
    if (e) {
      const open = e.open && !(this.otherAsUnknown && e.other);
      return [...e.values.map(lit), open ? '(string & {})' : 'UnknownValue'].join(' | ');
    }
    const nonNull = branches.filter((b) => !isNullSchema(b));
    const tags = unionTags(nonNull);
    const members = branches.map((b) => {
      if (isNullSchema(b)) return 'null';
      if (tags && this.otherAsUnknown && isOtherBranch(b) && branchTag(b) === undefined) {
        return this.unknownVariantType(b, tags.key, indent);
      }
      return this.typeOf(b, indent);
    });
    if (tags && tags.untagged.length === 0) members.push(`UnknownVariant<${lit(tags.key)}>`);
    return members.join(' | ');
  }

  /** The `other` branch of a tagged union: an unknown variant, with whatever else the branch requires. */
  private unknownVariantType(branch: JsonSchema, key: string, indent: string): string {
    const rest = withoutTag(branch, key);
    const known = `UnknownVariant<${lit(key)}>`;
    if (typeof rest !== 'object' || rest.properties === undefined) return known;
    return `(${known} & ${this.typeOf({ properties: rest.properties, required: rest.required }, indent)})`;
  }

  module(header: string, runtimeImport: string): string {
    const out = [
      header,
      '/* eslint-disable */',
      `import type { UnknownValue, UnknownVariant } from '${runtimeImport}';`,
    ];
    for (const [name, def] of Object.entries(this.defs)) {
      out.push(`${docComment(def.description, '')}export type ${name} = ${this.typeOf(def)};`);
    }
    return `${out.join('\n\n')}\n`;
  }
}

// ------------------------------------------------------------------ method table

export interface MethodEntry {
  method: string;
  /** Who handles it: `agent` (client → agent), `client` (agent → client) or `protocol` (either). */
  side: string;
  kind: 'request' | 'notification';
  params: string;
  result?: string;
}

/**
 * The methods of the schema, one entry per method and kind. A method name can be both a request and
 * a notification (the unstable `mcp/message` and `proxy/successor`), possibly handled by different
 * sides: those get two entries.
 */
export function collectMethods(defs: Record<string, SchemaObject>): MethodEntry[] {
  const byKey = new Map<string, MethodEntry>();
  for (const [name, def] of Object.entries(defs)) {
    const method = def['x-method'];
    const side = def['x-side'];
    if (!method || !side) continue;
    const kind = name.endsWith('Notification') ? 'notification' : 'request';
    const key = `${kind} ${method}`;
    const entry = byKey.get(key) ?? { method, side, kind, params: '' };
    if (entry.side !== side) throw new Error(`${name}: side ${side} differs from ${entry.side} for ${key}`);
    if (name.endsWith('Request') || name.endsWith('Notification')) {
      if (entry.params) throw new Error(`${name}: ${key} already has params ${entry.params}`);
      entry.params = name;
    } else if (name.endsWith('Response')) {
      entry.result = name;
    } else throw new Error(`cannot classify ${name} for ${method}`);
    byKey.set(key, entry);
  }
  const entries = [...byKey.values()];
  for (const e of entries) {
    if (!e.params || (e.kind === 'request' && !e.result)) throw new Error(`incomplete method ${e.method}`);
  }
  return entries;
}

function constName(method: string): string {
  return method.replace(/^\$\//, '').replace(/[/ ]/g, '_');
}

export function methodsModule(header: string, entries: MethodEntry[]): string {
  const out = [
    header,
    '/* eslint-disable */',
    "import type * as T from './types.gen.js';",
    "import * as V from './validators.gen.js';",
    "import type { Checker, Parser } from '../runtime.js';",
  ];
  const group = (side: MethodEntry['side'], kind: MethodEntry['kind']) =>
    entries.filter((e) => e.side === side && e.kind === kind);
  const reqIface = (name: string, doc: string, list: MethodEntry[]) =>
    `/** ${doc} */\nexport interface ${name} {\n${list.map((e) => `  ${lit(e.method)}: { params: T.${e.params}; result: T.${e.result} };`).join('\n')}\n}`;
  const notIface = (name: string, doc: string, list: MethodEntry[]) =>
    `/** ${doc} */\nexport interface ${name} {\n${list.map((e) => `  ${lit(e.method)}: T.${e.params};`).join('\n')}\n}`;
  out.push(
    reqIface('AgentRequests', 'Requests the agent handles (client → agent).', group('agent', 'request')),
  );
  out.push(
    notIface(
      'AgentNotifications',
      'Notifications the agent handles (client → agent).',
      group('agent', 'notification'),
    ),
  );
  out.push(
    reqIface('ClientRequests', 'Requests the client handles (agent → client).', group('client', 'request')),
  );
  out.push(
    notIface(
      'ClientNotifications',
      'Notifications the client handles (agent → client).',
      group('client', 'notification'),
    ),
  );
  out.push(
    notIface(
      'ProtocolNotifications',
      'Notifications either side handles.',
      group('protocol', 'notification'),
    ),
  );
  const consts = (name: string, doc: string, side: MethodEntry['side']) =>
    `/** ${doc} */\nexport const ${name} = {\n${[
      ...new Set(entries.filter((e) => e.side === side).map((e) => e.method)),
    ]
      .map((m) => `  ${constName(m)}: ${lit(m)},`)
      .join('\n')}\n} as const;`;
  out.push(consts('AGENT_METHODS', 'Method names handled by the agent.', 'agent'));
  out.push(consts('CLIENT_METHODS', 'Method names handled by the client.', 'client'));
  out.push(consts('PROTOCOL_METHODS', 'Method names handled by either side.', 'protocol'));
  out.push(`/** One method of the schema with its validators. */
export interface MethodInfo {
  method: string;
  /** Who handles it: \`agent\`, \`client\`, \`protocol\` (either), or another role of the unstable schema. */
  side: string;
  kind: 'request' | 'notification';
  /** Schema definition names of the params and (for requests) the result. */
  paramsType: string;
  resultType?: string;
  parseParams: Parser;
  checkParams: Checker;
  parseResult?: Parser;
  checkResult?: Checker;
  /**
   * Set when the method is also a notification (unstable \`mcp/message\`, \`proxy/successor\`): how to
   * validate a frame without an id. The entry itself then describes the request.
   */
  notification?: MethodInfo;
}`);
  const info = (e: MethodEntry): string => {
    const fields = [
      `method: ${lit(e.method)}`,
      `side: ${lit(e.side)}`,
      `kind: ${lit(e.kind)}`,
      `paramsType: ${lit(e.params)}`,
      `parseParams: V.parse${e.params}`,
      `checkParams: V.check${e.params}`,
    ];
    if (e.result)
      fields.push(
        `resultType: ${lit(e.result)}`,
        `parseResult: V.parse${e.result}`,
        `checkResult: V.check${e.result}`,
      );
    const notification =
      e.kind === 'request' && entries.find((n) => n.method === e.method && n.kind === 'notification');
    if (notification) fields.push(`notification: ${info(notification)}`);
    return `{ ${fields.join(', ')} }`;
  };
  const rows = entries.filter(
    (e) => e.kind === 'request' || !entries.some((r) => r.method === e.method && r.kind === 'request'),
  );
  out.push(
    `/** Every method of the schema, by name. */\nexport const METHOD_TABLE: ReadonlyMap<string, MethodInfo> = new Map<string, MethodInfo>([\n${rows
      .map((e) => `  [${lit(e.method)}, ${info(e)}],`)
      .join('\n')}\n]);`,
  );
  return `${out.join('\n\n')}\n`;
}
