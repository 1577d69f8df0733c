/**
 * fast-check arbitraries derived from the ACP JSON schema: values shaped like a definition (mostly
 * valid), and the same values after small mutations (a required key deleted, a wrong type, an unknown
 * tag, a stray `null`), so the properties see both sides of every rule.
 */
import fc from 'fast-check';
import { NUMBER_FORMATS } from '../runtime.js';
import type { Schema, SchemaDocument, SchemaNode } from './oracle.js';

/** A node without `$ref`/`allOf`: one conjunct of a flattened schema. */
type Atom = SchemaNode | false;

/** Edge values of the number formats the schema uses. */
const FORMAT_EDGES: Record<string, number[]> = {
  int32: [-2147483648, -2147483649, 2147483647, 2147483648],
  uint16: [65535, 65536],
  uint32: [4294967295, 4294967296],
  int64: [-9007199254740991, 9007199254740991, 2 ** 63, -(2 ** 63)],
  uint64: [9007199254740991, 2 ** 64, 2 ** 65],
  double: [Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 1e-300],
};

const DOC_KEYS = new Set([
  'description',
  'title',
  'x-docs-ignore',
  'x-method',
  'x-side',
  'discriminator',
  'default',
]);

/** Small JSON values of every kind, for extra keys, untyped schemas and mutations. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2, depthSize: 'small' });

const oddValues: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, 0, -1, 1.5, 42, '', 'x', true, false, [], {}, [null], { type: 42 }),
  anyJson,
);

export interface SchemaArbitrariesOptions {
  /** How many `$ref`s deep to follow before giving up with `null`. */
  maxRefDepth?: number;
  /** Maximum array length. */
  maxItems?: number;
}

/** Builds fast-check arbitraries for the `$defs` entries of one schema document. */
export class SchemaArbitraries {
  private readonly defs: Record<string, SchemaNode>;
  private readonly memo = new Map<string, fc.Arbitrary<unknown>>();
  private readonly building: string[] = [];
  private readonly maxRefDepth: number;
  private readonly maxItems: number;
  /** Every discriminator-like string constant in the schema: tags to swap in as mutations. */
  readonly tagValues: string[];

  constructor(doc: SchemaDocument, options: SchemaArbitrariesOptions = {}) {
    this.defs = doc.$defs;
    this.maxRefDepth = options.maxRefDepth ?? 12;
    this.maxItems = options.maxItems ?? 3;
    const tags = new Set<string>();
    JSON.stringify(doc.$defs, (k, v: unknown) => {
      if (k === 'const' && typeof v === 'string') tags.add(v);
      return v;
    });
    this.tagValues = [...tags].sort();
  }

  /** Values shaped like `#/$defs/<name>`: valid most of the time, at format edges some of the time. */
  shaped(name: string): fc.Arbitrary<unknown> {
    return this.ref(name);
  }

  /** Shaped values, mutated values and random JSON: the mix the properties run on. */
  values(name: string): fc.Arbitrary<unknown> {
    const shaped = this.shaped(name);
    return fc.oneof(
      { weight: 5, arbitrary: shaped },
      {
        weight: 5,
        arbitrary: fc
          .tuple(shaped, fc.array(this.mutation(), { minLength: 1, maxLength: 3 }))
          .map(([v, ms]) => mutate(v, ms)),
      },
      { weight: 1, arbitrary: anyJson },
    );
  }

  /** One random mutation: applied with {@link mutate}. */
  mutation(): fc.Arbitrary<Mutation> {
    return fc.record({
      kind: fc.constantFrom<Mutation['kind']>('delete', 'replace', 'null', 'tag', 'extra', 'empty'),
      at: fc.nat(),
      value: oddValues,
      tag: fc.oneof(
        fc.constantFrom('x_unknown', 'future_variant', 'TEXT', ''),
        fc.constantFrom(...this.tagValues),
      ),
    });
  }

  private ref(name: string): fc.Arbitrary<unknown> {
    const cached = this.memo.get(name);
    if (cached) return cached;
    const def = this.defs[name];
    if (!def) throw new Error(`no definition ${name}`);
    // The ACP schema has no cycles; this guards against one appearing.
    if (this.building.includes(name) || this.building.length >= this.maxRefDepth) return fc.constant(null);
    this.building.push(name);
    try {
      const arb = this.conj([def]);
      this.memo.set(name, arb);
      return arb;
    } finally {
      this.building.pop();
    }
  }

  /** Flattens `$ref` and `allOf` into a list of atoms whose conjunction is the schema. */
  private flatten(list: Schema[]): Atom[] | { ref: string } {
    const bare = list.length === 1 ? bareRef(list[0]!) : undefined;
    if (bare) return { ref: bare };
    const out: Atom[] = [];
    const add = (s: Schema): void => {
      if (s === true) return;
      if (s === false) {
        out.push(false);
        return;
      }
      const { $ref, allOf, ...rest } = s;
      if (meaningful(rest)) out.push(rest);
      if ($ref) add(this.defs[refName($ref)]!);
      for (const part of allOf ?? []) add(part);
    };
    list.forEach(add);
    return out;
  }

  /** An arbitrary for the conjunction of `list`. */
  private conj(list: Schema[]): fc.Arbitrary<unknown> {
    const flat = this.flatten(list);
    if ('ref' in flat) return this.ref(flat.ref);
    if (flat.includes(false)) return oddValues;
    const atoms = flat as SchemaNode[];
    // Expand the first union: one arbitrary per branch, each with the rest of the conjunction.
    const i = atoms.findIndex((a) => a.anyOf || a.oneOf);
    if (i >= 0) {
      const atom = atoms[i]!;
      const branches = (atom.anyOf ?? atom.oneOf)!;
      const rest: SchemaNode = { ...atom };
      if (atom.anyOf) delete rest.anyOf;
      else delete rest.oneOf;
      const others = [...atoms.slice(0, i), rest, ...atoms.slice(i + 1)];
      return fc.oneof(...branches.map((b) => this.conj([...others, b])));
    }
    return this.merged(atoms);
  }

  /** Arrays mostly at least `minItems` long and sometimes shorter, so both sides of the bound are seen. */
  private array(item: fc.Arbitrary<unknown>, minItems: number): fc.Arbitrary<unknown[]> {
    const long = fc.array(item, { minLength: minItems, maxLength: Math.max(this.maxItems, minItems) });
    if (minItems === 0) return long;
    return fc.oneof(
      { weight: 4, arbitrary: long },
      { weight: 1, arbitrary: fc.array(item, { maxLength: minItems - 1 }) },
    );
  }

  /** Values for a union-free conjunction of atoms. */
  private merged(atoms: SchemaNode[]): fc.Arbitrary<unknown> {
    let types: string[] | undefined;
    const props = new Map<string, Schema[]>();
    const required = new Set<string>();
    const additional: Schema[] = [];
    const items: Schema[] = [];
    let minimum = -Infinity;
    let maximum = Infinity;
    let minLength = 0;
    let minItems = 0;
    const formats: string[] = [];
    for (const a of atoms) {
      if ('const' in a) return fc.constant(a.const);
      if (a.enum) return fc.constantFrom(...a.enum);
      if (a.type !== undefined) {
        const t = Array.isArray(a.type) ? a.type : [a.type];
        types = types ? intersectTypes(types, t) : t;
      }
      for (const [k, p] of Object.entries(a.properties ?? {})) props.set(k, [...(props.get(k) ?? []), p]);
      for (const r of a.required ?? []) required.add(r);
      if (a.additionalProperties !== undefined && a.additionalProperties !== true)
        additional.push(a.additionalProperties);
      if (a.items !== undefined && a.items !== true) items.push(a.items);
      if (a.minimum !== undefined) minimum = Math.max(minimum, a.minimum);
      if (a.maximum !== undefined) maximum = Math.min(maximum, a.maximum);
      if (a.minLength !== undefined) minLength = Math.max(minLength, a.minLength);
      if (a.minItems !== undefined) minItems = Math.max(minItems, a.minItems);
      if (a.format) formats.push(a.format);
    }
    if (!types) {
      if (props.size > 0 || required.size > 0 || additional.length > 0) types = ['object'];
      else if (items.length > 0) types = ['array'];
      else return anyJson;
    }
    const byType = types.map((t): fc.Arbitrary<unknown> => {
      switch (t) {
        case 'object':
          return this.object(props, required, additional);
        case 'array':
          return this.array(items.length > 0 ? this.conj(items) : anyJson, minItems);
        case 'string':
          return stringArb(minLength);
        case 'integer':
        case 'number':
          return numberArb(t === 'integer', minimum, maximum, formats);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        default:
          throw new Error(`unsupported type ${t}`);
      }
    });
    return byType.length === 0 ? oddValues : byType.length === 1 ? byType[0]! : fc.oneof(...byType);
  }

  private object(
    props: Map<string, Schema[]>,
    required: Set<string>,
    additional: Schema[],
  ): fc.Arbitrary<unknown> {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, list] of props) model[k] = this.conj(list);
    for (const r of required) model[r] ??= anyJson;
    const known = new Set(Object.keys(model));
    const extraKey = fc
      .oneof(
        fc.constantFrom('extra', 'x-vendor', 'futureField', '_meta2'),
        fc.string({ minLength: 1, maxLength: 6 }),
      )
      .filter((k) => !known.has(k) && k !== '__proto__');
    const extraValue = additional.length > 0 ? this.conj(additional) : anyJson;
    const record = fc.record(model, { requiredKeys: [...required] });
    const extras = fc.oneof(
      { weight: 3, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.dictionary(extraKey, extraValue, { maxKeys: 2 }) },
    );
    return fc.tuple(record, extras).map(([r, e]) => ({ ...e, ...r }));
  }
}

function meaningful(node: SchemaNode): boolean {
  return Object.keys(node).some(
    (k) => !DOC_KEYS.has(k) && !k.startsWith('x-deserialize') && node[k] !== undefined,
  );
}

/** The definition a node only points at (`{$ref}` or `{allOf: [{$ref}]}`), if that is all it does. */
function bareRef(s: Schema): string | undefined {
  if (typeof s !== 'object') return undefined;
  const { $ref, allOf, ...rest } = s;
  if (meaningful(rest)) return undefined;
  if ($ref && !allOf) return refName($ref);
  if (!$ref && allOf?.length === 1) return bareRef(allOf[0]!);
  return undefined;
}

function intersectTypes(a: string[], b: string[]): string[] {
  const out = new Set<string>();
  for (const x of a) {
    if (b.includes(x)) out.add(x);
    else if ((x === 'integer' && b.includes('number')) || (x === 'number' && b.includes('integer')))
      out.add('integer');
  }
  return [...out];
}

function refName(ref: string): string {
  const m = /^#\/\$defs\/(\w+)$/.exec(ref);
  if (!m?.[1]) throw new Error(`unsupported $ref ${ref}`);
  return m[1];
}

function stringArb(minLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
    // Code points versus UTF-16 units, and lone surrogates (JSON can carry them).
    { weight: 1, arbitrary: fc.constantFrom('', 'é', '😀', '\ud800', 'a\udc00', '/tmp/a b/ç.ts') },
  );
}

function numberArb(
  integer: boolean,
  minimum: number,
  maximum: number,
  formats: string[],
): fc.Arbitrary<number> {
  const edges = new Set<number>([0, -1, 1]);
  for (const f of formats) for (const e of FORMAT_EDGES[f] ?? []) edges.add(e);
  if (Number.isFinite(minimum)) [minimum, minimum - 1].forEach((e) => edges.add(e));
  if (Number.isFinite(maximum)) [maximum, maximum + 1].forEach((e) => edges.add(e));
  const lo = Number.isFinite(minimum) ? minimum : -1000;
  const hi = Number.isFinite(maximum) ? Math.min(maximum, lo + 100_000) : 100_000;
  const inRange = fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) });
  const parts: fc.WeightedArbitrary<number>[] = [
    { weight: 6, arbitrary: inRange },
    { weight: 2, arbitrary: fc.constantFrom(...edges) },
    { weight: 1, arbitrary: fc.constantFrom(0.5, -2.5, 1e21, 2 ** 53 + 2) },
  ];
  if (!integer) {
    parts.push({
      weight: 3,
      arbitrary: fc
        .double({
          noNaN: true,
          noDefaultInfinity: true,
          min: Math.max(lo, -1e6),
          max: Number.isFinite(maximum) ? maximum : 1e6,
        })
        .map((n) => (Object.is(n, -0) ? 0 : n)),
    });
  }
  return fc.oneof(...parts).filter((n) => formats.every((f) => f !== 'double' || NUMBER_FORMATS.double!(n)));
}

/** One edit of a generated value. `at` picks the node (modulo the number of candidates). */
export interface Mutation {
  kind: 'delete' | 'replace' | 'null' | 'tag' | 'extra' | 'empty';
  at: number;
  value: unknown;
  tag: string;
}

interface Slot {
  parent: Record<string, unknown> | unknown[] | undefined;
  key: string | number;
  value: unknown;
}

function slots(root: unknown): Slot[] {
  const out: Slot[] = [{ parent: undefined, key: '', value: root }];
  const visit = (v: unknown) => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        out.push({ parent: v, key: i, value: item });
        visit(item);
      });
    } else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        out.push({ parent: o, key: k, value: o[k] });
        visit(o[k]);
      }
    }
  };
  visit(root);
  return out;
}

/** Applies mutations to a copy of `value`. */
export function mutate(value: unknown, mutations: Mutation[]): unknown {
  let root = structuredClone(value);
  for (const m of mutations) {
    const all = slots(root);
    const set = (s: Slot, v: unknown) => {
      if (s.parent === undefined) root = v;
      else (s.parent as Record<string | number, unknown>)[s.key] = v;
    };
    const pick = (filter: (s: Slot) => boolean): Slot | undefined => {
      const c = all.filter(filter);
      return c.length === 0 ? undefined : c[m.at % c.length];
    };
    switch (m.kind) {
      case 'delete': {
        const s = pick((x) => x.parent !== undefined);
        if (!s) break;
        if (Array.isArray(s.parent)) s.parent.splice(s.key as number, 1);
        else delete (s.parent as Record<string, unknown>)[s.key];
        break;
      }
      case 'replace': {
        const s = pick(() => true);
        if (s) set(s, structuredClone(m.value));
        break;
      }
      case 'null': {
        const s = pick(() => true);
        if (s) set(s, null);
        break;
      }
      case 'tag': {
        const s = pick((x) => typeof x.value === 'string');
        if (s) set(s, m.tag);
        break;
      }
      case 'extra': {
        const s = pick((x) => typeof x.value === 'object' && x.value !== null && !Array.isArray(x.value));
        if (s) (s.value as Record<string, unknown>)[`extra_${m.at % 7}`] = structuredClone(m.value);
        break;
      }
      case 'empty': {
        const s = pick((x) => typeof x.value === 'object' && x.value !== null);
        if (s) set(s, Array.isArray(s.value) ? [] : {});
        break;
      }
    }
  }
  return root;
}
