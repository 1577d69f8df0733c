/**
 * B5 as a procedure, for any schema version and reader: schema-invalid params for every inbound
 * method of a side, generated from the schema; -32602 with the id (no reply to a notification), and
 * no handler invoked.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { expect } from 'vitest';
import { safeJson } from './canary.js';
import { figure } from './figures.js';
import { errorCode as code, exchange, type Reader } from './readers.js';
import { COUNTS } from './size.js';

type SchemaNode = Record<string, unknown>;

/** One schema version's inbound methods and field validators. */
export class SchemaCases {
  private readonly defs: Record<string, SchemaNode>;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  private readonly fieldValidators = new Map<string, (value: unknown) => boolean>();

  constructor(readonly version: 'v1' | 'v2') {
    const path = createRequire(import.meta.url).resolve(
      `@agentclientprotocol/sdk/schema/${version}/schema.json`,
    );
    this.defs = (JSON.parse(readFileSync(path, 'utf8')) as { $defs: Record<string, SchemaNode> }).$defs;
    this.ajv.addSchema({ $id: 'acp', $defs: this.defs });
  }

  /** Inbound methods of one side: requests and notifications with their params definition. */
  inboundMethods(side: 'client' | 'agent'): { method: string; def: string; request: boolean }[] {
    return Object.entries(this.defs)
      .filter(
        ([name, def]) =>
          def['x-side'] === side &&
          /(Request|Notification)$/.test(name) &&
          typeof def['x-method'] === 'string',
      )
      .map(([name, def]) => ({
        method: def['x-method'] as string,
        def: name,
        request: name.endsWith('Request'),
      }));
  }

  /** Required fields of a definition that a wrong value can never be repaired for. */
  strictRequired(def: string): string[] {
    const node = this.defs[def] as { required?: string[]; properties?: Record<string, SchemaNode> };
    return (node.required ?? []).filter(
      (field) => !node.properties?.[field]?.['x-deserialize-default-on-error'],
    );
  }

  fieldAccepts(def: string, field: string, value: unknown): boolean {
    const key = `${def}.${field}`;
    let validate = this.fieldValidators.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `acp#/$defs/${def}/properties/${field}` }) as (
        v: unknown,
      ) => boolean;
      this.fieldValidators.set(key, validate);
    }
    return validate(value);
  }
}

/** Runs B5 on `reader` (of `side`) with `cases`' methods; records the figure under `label`. */
export async function schemaInvalidParams(
  cases: SchemaCases,
  side: 'client' | 'agent',
  reader: Reader,
  seed: number,
  label: string,
): Promise<void> {
  const methods = cases.inboundMethods(side).filter((m) => m.method !== '$/cancel_request');
  const covered = new Set<string>();
  let count = 0;
  const wrong = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.string({ maxLength: 8 }),
    fc.boolean(),
    fc.array(fc.integer(), { maxLength: 2 }),
    fc.constant({}),
  );
  const scenario = fc.constantFrom(...methods).chain((m) => {
    const fields = cases.strictRequired(m.def);
    const params =
      fields.length === 0
        ? fc.constantFrom<unknown>([], [1], ['x'])
        : fc
            .constantFrom(...fields)
            .chain((field) =>
              wrong
                .filter((v) => !cases.fieldAccepts(m.def, field, v))
                .map((v) => ({ [field]: v }) as unknown),
            );
    return fc.tuple(fc.constant(m), fc.oneof(params, fields.length > 0 ? fc.constant({}) : params));
  });
  await fc.assert(
    fc.asyncProperty(scenario, async ([m, params]) => {
      count++;
      covered.add(m.method);
      const id = `b5-${count}`;
      const frame = m.request
        ? { jsonrpc: '2.0', id, method: m.method, params }
        : { jsonrpc: '2.0', method: m.method, params };
      const before = { handled: reader.handled.length, received: reader.received.length };
      const out = await exchange(reader, [JSON.stringify(frame)]);
      expect(reader.handled.length, `${m.method} ${safeJson(params)}`).toBe(before.handled);
      expect(reader.received.length, `${m.method} ${safeJson(params)}`).toBe(before.received);
      if (m.request)
        expect(
          out.map((f) => [f.id, code(f)]),
          `${m.method} ${safeJson(params)}`,
        ).toEqual([[id, -32602]]);
      else expect(out, `${m.method} ${safeJson(params)}`).toEqual([]);
    }),
    { seed, numRuns: COUNTS.propertyRuns },
  );
  figure({
    case: 'B5',
    name: `${label}: methods covered ${covered.size} of ${methods.length}`,
    value: count,
    unit: 'cases',
    target: `all ${methods.length} methods`,
    pass: covered.size === methods.length,
    seed,
  });
  expect(covered.size).toBe(methods.length);
}
