/**
 * Oracle tests of the v1 modules: the generated strict checkers must agree with ajv (JSON Schema
 * 2020-12) on every definition, and the lenient parsers must only ever be more permissive in the
 * documented ways (the shared suite, `test-support/oracle-suite.ts`), plus the leniency rules one by one.
 */
import { describe, expect, it } from 'vitest';
import { METHOD_TABLE } from './methods.gen.js';
import { UNKNOWN_VARIANT, isUnknownVariant, parseWith } from './runtime.js';
import { METHOD_TABLE as UNSTABLE_METHOD_TABLE } from './unstable/methods.gen.js';
import * as UV from './unstable/validators.gen.js';
import * as V from './validators.gen.js';
import { INVALID_DEFS, METHOD_EXAMPLES, SESSION_UPDATES, VALID_DEFS } from './test-support/corpus.js';
import {
  describeAgreement,
  describeCorpus,
  describeCoverage,
  describeLeniency,
  runs,
  branchTags as unionTags,
  tagsOf,
  type GeneratedSchema,
} from './test-support/oracle-suite.js';
import { stableOracle, unstableOracle } from './test-support/oracle.js';

const oracle = stableOracle();
const stable: GeneratedSchema = { label: 'stable', oracle, validators: V, table: METHOD_TABLE };
const unstable: GeneratedSchema = {
  label: 'unstable',
  oracle: unstableOracle(),
  validators: UV,
  table: UNSTABLE_METHOD_TABLE,
};

// ------------------------------------------------------------------ coverage of the generated code

describe('generated modules cover the schema', () => {
  describeCoverage(stable);
  describeCoverage(unstable);
});

// ------------------------------------------------------------------ corpus

describe('corpus of documented examples', () => {
  describeCorpus(stable, METHOD_EXAMPLES, VALID_DEFS, INVALID_DEFS);

  it('covers every session/update variant, content type, tool call content, outcome and config option shape', () => {
    const tags = tagsOf;
    const branchTags = (def: string, key: string) => unionTags(oracle, def, key);
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
});

// ------------------------------------------------------------------ properties

describeAgreement(stable, runs(150), true);
describeLeniency(stable, runs(150));
describeAgreement(unstable, runs(40), false);

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
