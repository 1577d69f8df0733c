/**
 * The reference validator for the oracle tests: ajv 8 (JSON Schema 2020-12) over the schema shipped
 * in the pinned `@agentclientprotocol/sdk`, one compiled function per `$defs` entry.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { NUMBER_FORMATS } from '../runtime.js';

/** A JSON Schema node as it appears in the ACP schema. */
export type Schema = boolean | SchemaNode;
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema;
  unevaluatedProperties?: Schema;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  format?: string;
  default?: unknown;
  'x-method'?: string;
  'x-side'?: string;
  'x-deserialize-default-on-error'?: boolean;
  'x-deserialize-default-on-null'?: boolean;
  'x-deserialize-skip-invalid-items'?: boolean;
  [key: string]: unknown;
}
export interface SchemaDocument {
  $defs: Record<string, SchemaNode>;
  [key: string]: unknown;
}

const require = createRequire(import.meta.url);

function loadSchema(file: string, version: 'v1' | 'v2' = 'v1'): SchemaDocument {
  return JSON.parse(
    readFileSync(require.resolve(`@agentclientprotocol/sdk/schema/${version}/${file}`), 'utf8'),
  ) as SchemaDocument;
}

/** Validates values against the `$defs` entries of one schema document. */
export class Oracle {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly id: string;

  constructor(
    readonly doc: SchemaDocument,
    name: string,
  ) {
    this.id = `urn:acp-kit:${name}`;
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });
    for (const [format, test] of Object.entries(NUMBER_FORMATS)) {
      this.ajv.addFormat(format, { type: 'number', validate: test });
    }
    // String formats are documentation for us (annotations, as 2020-12 has them): any string is accepted.
    for (const format of ['uri', 'date-time', 'regex']) {
      this.ajv.addFormat(format, { type: 'string', validate: () => true });
    }
    this.ajv.addSchema({ ...doc, $id: this.id });
  }

  get defNames(): string[] {
    return Object.keys(this.doc.$defs);
  }

  /** The compiled ajv function for `#/$defs/<name>`. */
  validator(name: string): ValidateFunction {
    let fn = this.cache.get(name);
    if (!fn) {
      if (!(name in this.doc.$defs)) throw new Error(`no definition ${name}`);
      fn = this.ajv.getSchema(`${this.id}#/$defs/${name}`);
      if (!fn) throw new Error(`ajv could not compile ${name}`);
      this.cache.set(name, fn);
    }
    return fn;
  }

  /** True when ajv accepts `value` as `#/$defs/<name>`. */
  valid(name: string, value: unknown): boolean {
    return this.validator(name)(value) === true;
  }

  /** ajv's first complaint, for failure messages. */
  explain(name: string, value: unknown): string {
    const fn = this.validator(name);
    return fn(value) ? 'valid' : JSON.stringify(fn.errors?.slice(0, 3));
  }
}

let stable: Oracle | undefined;
let unstable: Oracle | undefined;
let v2: Oracle | undefined;
let v2Unstable: Oracle | undefined;

/** The oracle for `schema.json`. */
export function stableOracle(): Oracle {
  stable ??= new Oracle(loadSchema('schema.json'), 'stable');
  return stable;
}

/** The oracle for `schema.unstable.json`. */
export function unstableOracle(): Oracle {
  unstable ??= new Oracle(loadSchema('schema.unstable.json'), 'unstable');
  return unstable;
}

/** The oracle for the v2 draft's `schema.json`. */
export function v2Oracle(): Oracle {
  v2 ??= new Oracle(loadSchema('schema.json', 'v2'), 'v2');
  return v2;
}

/** The oracle for the v2 draft's `schema.unstable.json`. */
export function v2UnstableOracle(): Oracle {
  v2Unstable ??= new Oracle(loadSchema('schema.unstable.json', 'v2'), 'v2-unstable');
  return v2Unstable;
}
