/**
 * Oracle tests: the generated strict checkers must agree with ajv (JSON Schema 2020-12) on every
 * definition, and the lenient parsers must only ever be more permissive in the documented ways.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { METHOD_TABLE } from './methods.gen.js';
import { FAIL, ParseContext, UNKNOWN_VARIANT, isUnknownVariant, parseWith } from './runtime.js';
import type { MethodInfo } from './methods.gen.js';
import type { Checker, Diagnostic, Parser } from './runtime.js';
import { METHOD_TABLE as UNSTABLE_METHOD_TABLE } from './unstable/methods.gen.js';
import * as UV from './unstable/validators.gen.js';
import * as V from './validators.gen.js';
import { SchemaArbitraries } from './test-support/arbitrary.js';
import { INVALID_DEFS, METHOD_EXAMPLES, SESSION_UPDATES, VALID_DEFS } from './test-support/corpus.js';
import type { Oracle } from './test-support/oracle.js';
import { stableOracle, unstableOracle } from './test-support/oracle.js';

/**
 * Fixed, so a failure is reproducible; fast-check prints it with the counterexample. For a longer
 * search: `ACP_ORACLE_SEED=<n> ACP_ORACLE_SCALE=<k> npx vitest run packages/protocol/src/schema`.
 */
const SEED = Number(process.env.ACP_ORACLE_SEED ?? 20_250_601);
const SCALE = Number(process.env.ACP_ORACLE_SCALE ?? 1);
const RUNS = {
  agreement: Math.round(150 * SCALE),
  lenient: Math.round(150 * SCALE),
  methods: Math.round(30 * SCALE),
  unstable: Math.round(40 * SCALE),
};

const oracle = stableOracle();
const arbs = new SchemaArbitraries(oracle.doc);
const defNames = oracle.defNames;

function fns(module: object, name: string): { check: Checker; parse: Parser } {
  const m = module as Record<string, unknown>;
  const check = m[`check${name}`];
  const parse = m[`parse${name}`];
  if (typeof check !== 'function' || typeof parse !== 'function')
    throw new Error(`no validators for ${name}`);
  return { check: check as Checker, parse: parse as Parser };
}

/** A per-definition seed: stable across runs, different between definitions. */
function seedFor(name: string): number {
  let h = SEED;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + name.charCodeAt(i)) | 0;
  return h;
}

function show(v: unknown): string {
  return JSON.stringify(v)?.slice(0, 600) ?? String(v);
}

interface ParseOutcome {
  out: unknown;
  ctx: ParseContext;
  threw?: unknown;
}

function lenient(parse: Parser, value: unknown): ParseOutcome {
  const ctx = new ParseContext();
  try {
    return { out: parse(value, ctx), ctx };
  } catch (threw) {
    return { out: FAIL, ctx, threw };
  }
}

const isUnknownKind = (d: Diagnostic) =>
  d.kind === 'unknown-variant' || d.kind === 'unknown-value' || d.kind === 'tolerated';

// ------------------------------------------------------------------ coverage of the generated code

describe('generated modules cover the schema', () => {
  it('every stable definition has a checker and a parser', () => {
    for (const name of defNames) expect(() => fns(V, name), name).not.toThrow();
  });

  it('every unstable definition has a checker and a parser', () => {
    for (const name of unstableOracle().defNames) expect(() => fns(UV, name), name).not.toThrow();
  });

  for (const [label, table, o, module] of [
    ['stable', METHOD_TABLE, oracle, V],
    ['unstable', UNSTABLE_METHOD_TABLE, unstableOracle(), UV],
  ] as const) {
    it(`${label} METHOD_TABLE has exactly the schema's methods, wired to their own definitions`, () => {
      const fromSchema = new Set(
        Object.values(o.doc.$defs)
          .map((d) => d['x-method'])
          .filter((m) => m !== undefined),
      );
      expect(new Set(table.keys())).toEqual(fromSchema);
      const wired = new Set<string>();
      const expectWired = (info: MethodInfo) => {
        const method = info.method;
        const params = o.doc.$defs[info.paramsType]!;
        expect(params['x-method'], method).toBe(method);
        expect(params['x-side'], method).toBe(info.side);
        expect(info.paramsType.endsWith(info.kind === 'request' ? 'Request' : 'Notification'), method).toBe(
          true,
        );
        expect(info.checkParams).toBe(fns(module, info.paramsType).check);
        expect(info.parseParams).toBe(fns(module, info.paramsType).parse);
        wired.add(info.paramsType);
        if (info.kind === 'request') {
          expect(info.resultType, method).toBeDefined();
          const result = o.doc.$defs[info.resultType!]!;
          expect(result['x-method'], method).toBe(method);
          expect(info.checkResult).toBe(fns(module, info.resultType!).check);
          expect(info.parseResult).toBe(fns(module, info.resultType!).parse);
          wired.add(info.resultType!);
        } else {
          expect(info.resultType, method).toBeUndefined();
        }
      };
      for (const [method, info] of table) {
        expect(info.method).toBe(method);
        expectWired(info);
        if (info.notification) {
          expect(info.kind).toBe('request');
          expect(info.notification.kind).toBe('notification');
          expectWired(info.notification);
        }
      }
      // Every definition that names a method is reachable from the table.
      const withMethod = Object.entries(o.doc.$defs).filter(([, d]) => d['x-method'] !== undefined);
      expect(new Set(withMethod.map(([name]) => name))).toEqual(wired);
    });
  }
});

// ------------------------------------------------------------------ corpus

/** A valid example: ajv, the checker and the lenient parser all accept it, and the parser leaves it alone. */
function expectValid(
  o: Oracle,
  name: string,
  check: Checker,
  parse: Parser,
  value: unknown,
  label: string,
): void {
  expect(o.valid(name, value), `${label}: ajv rejects the corpus example: ${o.explain(name, value)}`).toBe(
    true,
  );
  expect(check(value), `${label}: check${name}`).toBe(true);
  const input = structuredClone(value);
  const { out, ctx, threw } = lenient(parse, input);
  expect(threw, label).toBeUndefined();
  expect(ctx.error, label).toBeUndefined();
  expect(out, label).not.toBe(FAIL);
  expect(ctx.diagnostics, label).toEqual([]);
  expect(isDeepStrictEqual(out, value), `${label}: parse changed a valid value`).toBe(true);
}

/** An invalid example: ajv and the checker reject it; the parser fails with a path or reports why it kept it. */
function expectInvalid(
  o: Oracle,
  name: string,
  check: Checker,
  parse: Parser,
  value: unknown,
  label: string,
): void {
  expect(o.valid(name, value), `${label}: ajv accepts the invalid corpus example`).toBe(false);
  expect(check(value), `${label}: check${name}`).toBe(false);
  const { out, ctx, threw } = lenient(parse, structuredClone(value));
  expect(threw, label).toBeUndefined();
  if (out === FAIL) expect(ctx.error, label).toBeDefined();
  else expect(ctx.diagnostics.length, `${label}: repaired silently`).toBeGreaterThan(0);
}

describe('corpus of documented examples', () => {
  it('covers every stable method, params and result', () => {
    for (const [method, info] of METHOD_TABLE) {
      const ex = METHOD_EXAMPLES[method];
      expect(ex, method).toBeDefined();
      expect(ex!.params.length, method).toBeGreaterThan(0);
      if (info.kind === 'request') expect(ex!.result?.length ?? 0, method).toBeGreaterThan(0);
    }
    expect(Object.keys(METHOD_EXAMPLES).filter((m) => !METHOD_TABLE.has(m))).toEqual([]);
  });

  it('covers every session/update variant, content type, tool call content, outcome and config option shape', () => {
    const tags = (values: unknown[], key: string) =>
      new Set(values.map((v) => (v as Record<string, unknown>)[key]).filter((t) => typeof t === 'string'));
    const branchTags = (def: string, key: string) =>
      new Set(
        (
          (oracle.doc.$defs[def]!.oneOf ?? oracle.doc.$defs[def]!.anyOf)! as {
            properties?: Record<string, { const?: unknown }>;
          }[]
        )
          .map((b) => b.properties?.[key]?.const)
          .filter((t) => typeof t === 'string'),
      );
    expect(tags(SESSION_UPDATES, 'sessionUpdate')).toEqual(branchTags('SessionUpdate', 'sessionUpdate'));
    expect(tags(VALID_DEFS.ContentBlock!, 'type')).toEqual(branchTags('ContentBlock', 'type'));
    expect(tags(VALID_DEFS.ToolCallContent!, 'type')).toEqual(branchTags('ToolCallContent', 'type'));
    expect(tags(VALID_DEFS.RequestPermissionOutcome!, 'outcome')).toEqual(
      branchTags('RequestPermissionOutcome', 'outcome'),
    );
    expect(tags(VALID_DEFS.SessionConfigOption!, 'type')).toEqual(branchTags('SessionConfigOption', 'type'));
    expect([...tags(VALID_DEFS.McpServer!, 'type')].sort()).toEqual(['http', 'sse']);
    expect(VALID_DEFS.McpServer!.some((s) => !('type' in (s as object)))).toBe(true);
    const configs = VALID_DEFS.SessionConfigOption! as { type: string; options?: { group?: string }[] }[];
    expect(configs.some((c) => c.type === 'select' && c.options!.every((o) => o.group === undefined))).toBe(
      true,
    );
    expect(configs.some((c) => c.type === 'select' && c.options!.every((o) => o.group !== undefined))).toBe(
      true,
    );
    const modes = METHOD_EXAMPLES['elicitation/create']!.params.map((p) => (p as { mode: string }).mode);
    expect(new Set(modes)).toEqual(new Set(['form', 'url']));
    expect(new Set(VALID_DEFS.PermissionOption!.map((o) => (o as { kind: string }).kind))).toEqual(
      new Set(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
    );
  });

  for (const [method, ex] of Object.entries(METHOD_EXAMPLES)) {
    it(`${method}: params and result examples`, () => {
      const info = METHOD_TABLE.get(method)!;
      ex.params.forEach((v, i) =>
        expectValid(oracle, info.paramsType, info.checkParams, info.parseParams, v, `${method} params[${i}]`),
      );
      ex.invalidParams?.forEach((v, i) =>
        expectInvalid(
          oracle,
          info.paramsType,
          info.checkParams,
          info.parseParams,
          v,
          `${method} invalidParams[${i}]`,
        ),
      );
      ex.result?.forEach((v, i) =>
        expectValid(
          oracle,
          info.resultType!,
          info.checkResult!,
          info.parseResult!,
          v,
          `${method} result[${i}]`,
        ),
      );
      ex.invalidResult?.forEach((v, i) =>
        expectInvalid(
          oracle,
          info.resultType!,
          info.checkResult!,
          info.parseResult!,
          v,
          `${method} invalidResult[${i}]`,
        ),
      );
    });
  }

  for (const name of new Set([...Object.keys(VALID_DEFS), ...Object.keys(INVALID_DEFS)])) {
    it(`${name}: valid and invalid examples`, () => {
      const { check, parse } = fns(V, name);
      VALID_DEFS[name]?.forEach((v, i) => expectValid(oracle, name, check, parse, v, `${name} valid[${i}]`));
      INVALID_DEFS[name]?.forEach((v, i) =>
        expectInvalid(oracle, name, check, parse, v, `${name} invalid[${i}]`),
      );
    });
  }
});

// ------------------------------------------------------------------ properties

describe('property 1: checkX agrees with ajv on generated values', () => {
  it.each(defNames)('%s', (name) => {
    const { check } = fns(V, name);
    let valid = 0;
    fc.assert(
      fc.property(arbs.values(name), (v) => {
        const expected = oracle.valid(name, v);
        if (expected) valid++;
        if (check(v) !== expected) {
          throw new Error(
            `check${name} says ${!expected} but ajv says ${expected} (${oracle.explain(name, v)}) for ${show(v)}`,
          );
        }
      }),
      { seed: seedFor(name), numRuns: RUNS.agreement },
    );
    // The generator must reach the valid side of every definition, or the property proves little.
    expect(valid, `${name}: no generated value was valid`).toBeGreaterThan(0);
  });

  it.each([...METHOD_TABLE.values()].map((m) => [m.method, m] as const))('method %s', (_method, info) => {
    for (const [type, check] of [
      [info.paramsType, info.checkParams],
      [info.resultType, info.checkResult],
    ] as const) {
      if (type === undefined || check === undefined) continue;
      fc.assert(
        fc.property(arbs.values(type), (v) => check(v) === oracle.valid(type, v)),
        { seed: seedFor(type), numRuns: RUNS.methods },
      );
    }
  });
});

describe('lenient parse properties on generated values', () => {
  it.each(defNames)('%s', (name) => {
    const { parse } = fns(V, name);
    fc.assert(
      fc.property(arbs.values(name), (v) => {
        const valid = oracle.valid(name, v);
        const input = structuredClone(v);
        const { out, ctx, threw } = lenient(parse, input);
        // Property 4: never throws.
        if (threw !== undefined) throw new Error(`parse${name} threw ${String(threw)} on ${show(v)}`);
        if (valid) {
          // Property 2: a valid value is accepted as is, silently.
          if (out === FAIL)
            throw new Error(`parse${name} rejects a valid value at ${show(ctx.error)}: ${show(v)}`);
          if (ctx.diagnostics.length > 0)
            throw new Error(`parse${name} reports ${show(ctx.diagnostics)} on valid ${show(v)}`);
          if (!isDeepStrictEqual(out, v) || !isDeepStrictEqual(input, v)) {
            throw new Error(`parse${name} changed a valid value: ${show(v)} became ${show(out)}`);
          }
        }
        if (out === FAIL) {
          if (ctx.error === undefined) throw new Error(`parse${name} failed without an error on ${show(v)}`);
        } else if (!oracle.valid(name, out) && !ctx.diagnostics.some(isUnknownKind)) {
          // Property 3: a repaired value is valid, unless it keeps something this schema does not know.
          throw new Error(
            `parse${name} accepted ${show(v)} as ${show(out)} (${show(ctx.diagnostics)}) but ajv rejects it: ${oracle.explain(name, out)}`,
          );
        }
        if (out !== FAIL && ctx.error !== undefined)
          throw new Error(`parse${name} succeeded with a stale error`);
      }),
      { seed: seedFor(name) ^ 0x5a5a, numRuns: RUNS.lenient },
    );
  });
});

describe('property 1 on the unstable schema', () => {
  const unstable = unstableOracle();
  const unstableArbs = new SchemaArbitraries(unstable.doc);
  it.each(unstable.defNames)('%s', (name) => {
    const { check } = fns(UV, name);
    fc.assert(
      fc.property(unstableArbs.values(name), (v) => {
        const expected = unstable.valid(name, v);
        if (check(v) !== expected) {
          throw new Error(`unstable check${name} says ${!expected} but ajv says ${expected} for ${show(v)}`);
        }
      }),
      { seed: seedFor(name), numRuns: RUNS.unstable },
    );
  });
});

// ------------------------------------------------------------------ leniency rules, one by one

const SESSION = 'sess_1';

function parseNotification(update: unknown) {
  return parseWith<{ update: Record<string | symbol, unknown> }>(V.parseSessionNotification, {
    sessionId: SESSION,
    update,
  });
}

describe('leniency rules on real definitions', () => {
  it('a valid agent_message_chunk is returned as is, without diagnostics', () => {
    const params = {
      sessionId: SESSION,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } },
    };
    const r = parseWith(V.parseSessionNotification, params);
    expect(r).toEqual({ ok: true, value: params, diagnostics: [] });
    expect(r.ok && r.value).toBe(params);
  });

  it('skip-invalid-items: one bad ToolCallUpdate.content item is dropped', () => {
    const good = { type: 'content', content: { type: 'text', text: 'ok' } };
    const r = parseNotification({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call_1',
      content: [good, { type: 'diff', path: '/x' }, { type: 'terminal', terminalId: 't' }],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.update.content).toEqual([good, { type: 'terminal', terminalId: 't' }]);
    expect(r.diagnostics).toEqual([
      { kind: 'skipped-item', path: 'update.content[1]', message: expect.any(String) },
    ]);
  });

  it('skip-invalid-items keeps an item with an unknown tag, marked', () => {
    const r = parseNotification({
      sessionUpdate: 'tool_call',
      toolCallId: 'call_1',
      title: 'x',
      content: [{ type: 'hologram', frames: 3 }],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [item] = r.value.update.content as unknown[];
    expect(isUnknownVariant(item)).toBe(true);
    expect(r.diagnostics.map((d) => [d.kind, d.path])).toEqual([['unknown-variant', 'update.content[0]']]);
  });

  it('default-on-error: InitializeRequest.clientCapabilities 42 becomes the default', () => {
    const r = parseWith<Record<string, unknown>>(V.parseInitializeRequest, {
      protocolVersion: 1,
      clientCapabilities: 42,
    });
    expect(r).toEqual({
      ok: true,
      value: {
        protocolVersion: 1,
        clientCapabilities: {
          fs: { readTextFile: false, writeTextFile: false },
          terminal: false,
          auth: { terminal: false },
        },
      },
      diagnostics: [{ kind: 'defaulted', path: 'clientCapabilities', message: expect.any(String) }],
    });
  });

  it('default-on-error inside a valid parent repairs only the field', () => {
    const r = parseWith<Record<string, unknown>>(V.parseInitializeRequest, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: 'yes', writeTextFile: true }, terminal: true },
    });
    expect(r.ok && r.value.clientCapabilities).toEqual({
      fs: { readTextFile: false, writeTextFile: true },
      terminal: true,
    });
    expect(r.diagnostics.map((d) => [d.kind, d.path])).toEqual([
      ['defaulted', 'clientCapabilities.fs.readTextFile'],
    ]);
  });

  it('default-on-error without a default drops an optional field; implicit [] for a required array', () => {
    const r = parseNotification({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c',
      title: 42,
      locations: 'here',
    });
    expect(r.ok && r.value.update).toEqual({ sessionUpdate: 'tool_call_update', toolCallId: 'c' });
    expect(r.diagnostics.map((d) => [d.kind, d.path])).toEqual([
      ['defaulted', 'update.title'],
      ['defaulted', 'update.locations'],
    ]);
    const plan = parseNotification({ sessionUpdate: 'plan', entries: 'none' });
    expect(plan.ok && plan.value.update).toEqual({ sessionUpdate: 'plan', entries: [] });
  });

  it('default-on-error: InitializeResponse keeps going past a bad auth method and bad capabilities', () => {
    const r = parseWith<Record<string, unknown>>(V.parseInitializeResponse, {
      protocolVersion: 1,
      agentCapabilities: { loadSession: 'yes', promptCapabilities: { image: true } },
      authMethods: [{ id: 'a', name: 'A' }, { id: 3 }],
    });
    expect(r.ok && r.value).toEqual({
      protocolVersion: 1,
      agentCapabilities: { loadSession: false, promptCapabilities: { image: true } },
      authMethods: [{ id: 'a', name: 'A' }],
    });
    expect(r.diagnostics.map((d) => [d.kind, d.path])).toEqual([
      ['defaulted', 'agentCapabilities.loadSession'],
      ['skipped-item', 'authMethods[1]'],
    ]);
  });

  it('default-on-null: CreateTerminalRequest.args null becomes []', () => {
    const r = parseWith<Record<string, unknown>>(V.parseCreateTerminalRequest, {
      sessionId: SESSION,
      command: 'ls',
      args: null,
      env: null,
    });
    expect(r.ok && r.value).toEqual({ sessionId: SESSION, command: 'ls', args: [], env: [] });
    // A non-null invalid value is still an error: the field has no default-on-error.
    const bad = parseWith(V.parseCreateTerminalRequest, { sessionId: SESSION, command: 'ls', args: 'x' });
    expect(bad).toMatchObject({ ok: false, error: { path: 'args' } });
  });

  it('default-on-null applies to required fields (McpServerStdio.args, env)', () => {
    const r = parseWith(V.parseNewSessionRequest, {
      cwd: '/w',
      mcpServers: [{ name: 'fs', command: 'mcp-fs', args: null, env: null }],
    });
    expect(r.ok && r.value).toEqual({
      cwd: '/w',
      mcpServers: [{ name: 'fs', command: 'mcp-fs', args: [], env: [] }],
    });
    expect(parseWith(V.parseNewSessionRequest, { cwd: '/w', mcpServers: null })).toMatchObject({
      ok: true,
      value: { mcpServers: [] },
    });
  });

  it('an unknown sessionUpdate is kept whole, marked UNKNOWN_VARIANT', () => {
    const update = { sessionUpdate: 'agent_dream_chunk', content: { type: 'text', text: 'zzz' } };
    const r = parseNotification(update);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.update).toBe(update);
    expect(r.value.update[UNKNOWN_VARIANT]).toBe(true);
    expect(isUnknownVariant(r.value.update)).toBe(true);
    expect(r.diagnostics).toEqual([
      { kind: 'unknown-variant', path: 'update', message: expect.stringContaining('agent_dream_chunk') },
    ]);
  });

  it('a non-string discriminator is an error at the tag', () => {
    expect(parseNotification({ sessionUpdate: 7 })).toMatchObject({
      ok: false,
      error: { path: 'update.sessionUpdate' },
    });
    expect(parseNotification({})).toMatchObject({ ok: false, error: { path: 'update.sessionUpdate' } });
  });

  it('unknown ContentBlock type, ToolKind, permission outcome and config option type are kept', () => {
    const prompt = parseWith<{ prompt: unknown[] }>(V.parsePromptRequest, {
      sessionId: SESSION,
      prompt: [
        { type: 'text', text: 'a' },
        { type: 'video', url: 'https://x' },
      ],
    });
    expect(prompt.ok && isUnknownVariant(prompt.value.prompt[1])).toBe(true);
    expect(prompt.diagnostics.map((d) => [d.kind, d.path])).toEqual([['unknown-variant', 'prompt[1]']]);

    const kind = parseNotification({
      sessionUpdate: 'tool_call',
      toolCallId: 'c',
      title: 't',
      kind: 'teleport',
    });
    expect(kind.ok && kind.value.update.kind).toBe('teleport');
    expect(kind.diagnostics.map((d) => [d.kind, d.path])).toEqual([['unknown-value', 'update.kind']]);

    const outcome = parseWith<{ outcome: object }>(V.parseRequestPermissionResponse, {
      outcome: { outcome: 'deferred' },
    });
    expect(outcome.ok && isUnknownVariant(outcome.value.outcome)).toBe(true);

    const config = parseNotification({
      sessionUpdate: 'config_option_update',
      configOptions: [{ id: 'temp', name: 'Temperature', type: 'slider', min: 0, max: 1, currentValue: 0.2 }],
    });
    expect(config.ok && isUnknownVariant((config.value.update.configOptions as unknown[])[0])).toBe(true);
  });

  it('open string enums accept unknown values silently (NoticeSeverity, SessionConfigOptionCategory)', () => {
    const r = parseNotification({ sessionUpdate: 'notice', severity: 'critical', title: 'Disk full' });
    expect(r).toMatchObject({ ok: true, diagnostics: [] });
  });

  it('tolerated: usage_update.used null (sent by real agents) is kept, reported, and still strict-invalid', () => {
    const params = { sessionId: 's', update: { sessionUpdate: 'usage_update', used: null, size: 200000 } };
    expect(V.checkSessionNotification(params)).toBe(false);
    const r = parseWith(V.parseSessionNotification, structuredClone(params));
    expect(r.ok && r.value).toEqual(params);
    expect(r.diagnostics.map((d) => [d.kind, d.path])).toEqual([['tolerated', 'update.used']]);
    // Any other bad value of `used` still rejects the message.
    const bad = parseWith(V.parseSessionNotification, { ...params, update: { ...params.update, used: 'x' } });
    expect(bad.ok).toBe(false);
  });

  it('a missing required field fails with its path', () => {
    expect(parseWith(V.parseSessionNotification, { update: SESSION_UPDATES[0] })).toMatchObject({
      ok: false,
      error: { path: 'sessionId', message: expect.any(String) },
    });
  });

  it('a bad nested required field fails with the full path', () => {
    expect(
      parseNotification({ sessionUpdate: 'agent_message_chunk', content: { text: 'hi' } }),
    ).toMatchObject({
      ok: false,
      error: { path: 'update.content.type' },
    });
    expect(
      parseNotification({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 5 } }),
    ).toMatchObject({
      ok: false,
      error: { path: 'update.content.text' },
    });
    expect(
      parseWith(V.parsePromptRequest, {
        sessionId: SESSION,
        prompt: [
          { type: 'text', text: 'a' },
          { type: 'image', mimeType: 'x' },
        ],
      }),
    ).toMatchObject({ ok: false, error: { path: 'prompt[1].data' } });
    expect(
      parseWith(V.parseRequestPermissionRequest, {
        sessionId: SESSION,
        toolCall: { toolCallId: 'c' },
        options: [{ optionId: 'a', name: 'A' }],
      }),
    ).toMatchObject({ ok: false, error: { path: 'options[0].kind' } });
  });

  it('objects keep unknown keys and _meta is not looked into', () => {
    const meta = { 'zed.dev/x': { deep: [1, null, { a: 'b' }] }, traceparent: '00-abc-def-01' };
    const r = parseNotification({
      sessionUpdate: 'current_mode_update',
      currentModeId: 'plan',
      extra: { a: 1 },
      _meta: meta,
    });
    expect(r).toMatchObject({ ok: true, diagnostics: [] });
    expect(r.ok && r.value.update).toEqual({
      sessionUpdate: 'current_mode_update',
      currentModeId: 'plan',
      extra: { a: 1 },
      _meta: meta,
    });
    const bad = parseNotification({ sessionUpdate: 'current_mode_update', currentModeId: 'plan', _meta: 42 });
    expect(bad.ok && bad.value.update).toEqual({
      sessionUpdate: 'current_mode_update',
      currentModeId: 'plan',
    });
    expect(bad.diagnostics.map((d) => [d.kind, d.path])).toEqual([['defaulted', 'update._meta']]);
  });

  it('an anyOf value valid only through its untagged branch is accepted as is', () => {
    // `type: "terminal"` selects the terminal shape, whose args are wrong; the agent shape still matches.
    const agentShaped = { id: 'a', name: 'A', type: 'terminal', args: 'not-an-array' };
    expect(V.checkAuthMethod(agentShaped)).toBe(true);
    expect(parseWith(V.parseAuthMethod, structuredClone(agentShaped))).toEqual({
      ok: true,
      value: agentShaped,
      diagnostics: [],
    });
    const stdioShaped = { type: 'http', name: 'x', command: 'mcp', args: [], env: [] };
    expect(V.checkMcpServer(stdioShaped)).toBe(true);
    expect(parseWith(V.parseMcpServer, structuredClone(stdioShaped))).toMatchObject({
      ok: true,
      diagnostics: [],
    });
  });

  it('a skipped item or a defaulted field leaves no diagnostics of its own behind', () => {
    // TextContent parses `annotations` (defaulted) before `text` (which then fails the item).
    const r = parseNotification({
      sessionUpdate: 'compaction_update',
      compactionId: 'cmp_1',
      status: 'completed',
      summary: [
        { type: 'text', text: 'ok', annotations: 5 },
        { type: 'text', annotations: 5, text: 7 },
      ],
    });
    expect(r.ok && r.value.update.summary).toEqual([{ type: 'text', text: 'ok' }]);
    expect(r.diagnostics.map((d) => [d.kind, d.path])).toEqual([
      ['defaulted', 'update.summary[0].annotations'],
      ['skipped-item', 'update.summary[1]'],
    ]);
    const tool = parseNotification({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c',
      content: 'not an array',
      locations: [{ path: '/a', line: -1 }],
    });
    expect(tool.diagnostics.map((d) => [d.kind, d.path])).toEqual([
      ['defaulted', 'update.content'],
      ['defaulted', 'update.locations[0].line'],
    ]);
    // Implementation parses `title` (defaulted) before `version` (which then fails agentInfo).
    const init = parseWith<Record<string, unknown>>(V.parseInitializeResponse, {
      protocolVersion: 1,
      agentInfo: { name: 'agent', title: 5, version: 7 },
    });
    expect(init).toEqual({
      ok: true,
      value: { protocolVersion: 1 },
      diagnostics: [{ kind: 'defaulted', path: 'agentInfo', message: 'invalid value dropped' }],
    });
  });
});
