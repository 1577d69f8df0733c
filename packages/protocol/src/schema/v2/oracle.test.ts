/**
 * Oracle tests of the v2 draft modules: the same suite as v1 (checkers agree with ajv, lenient
 * parsers only more permissive in the documented ways, a corpus of examples), plus the constructs
 * v2 brings: `other` branches kept as unknown variants and values, `minItems`, base64 bytes, patch
 * fields whose `null` means "clear", typed error data.
 */
import { describe, expect, it } from 'vitest';
import { UNKNOWN_VARIANT, isUnknownVariant, parseWith } from '../runtime.js';
import * as V1 from '../validators.gen.js';
import {
  CONTENT_BLOCKS_V2,
  INVALID_DEFS_V2,
  METHOD_EXAMPLES_V2,
  SESSION_UPDATES_V2,
  TOOL_CALL_CONTENT_V2,
  VALID_DEFS_V2,
} from '../test-support/corpus-v2.js';
import {
  describeAgreement,
  describeCorpus,
  describeCoverage,
  describeLeniency,
  runs,
  branchTags as unionTags,
  tagsOf,
  type GeneratedSchema,
} from '../test-support/oracle-suite.js';
import { v2Oracle, v2UnstableOracle } from '../test-support/oracle.js';
import { METHOD_TABLE } from './methods.gen.js';
import { METHOD_TABLE as UNSTABLE_METHOD_TABLE } from './unstable/methods.gen.js';
import * as UV from './unstable/validators.gen.js';
import * as V from './validators.gen.js';

const oracle = v2Oracle();
const v2: GeneratedSchema = { label: 'v2', oracle, validators: V, table: METHOD_TABLE, otherAsUnknown: true };
const v2Unstable: GeneratedSchema = {
  label: 'v2 unstable',
  oracle: v2UnstableOracle(),
  validators: UV,
  table: UNSTABLE_METHOD_TABLE,
  otherAsUnknown: true,
};

describe('generated v2 modules cover the schema', () => {
  describeCoverage(v2);
  describeCoverage(v2Unstable);
});

describe('corpus of v2 examples', () => {
  describeCorpus(v2, METHOD_EXAMPLES_V2, VALID_DEFS_V2, INVALID_DEFS_V2);

  it('covers every session/update variant, content block and tool call content', () => {
    const tags = tagsOf;
    const branchTags = (def: string, key: string) => unionTags(oracle, def, key);
    expect(tags(SESSION_UPDATES_V2, 'sessionUpdate')).toEqual(branchTags('SessionUpdate', 'sessionUpdate'));
    expect(tags(CONTENT_BLOCKS_V2, 'type')).toEqual(branchTags('ContentBlock', 'type'));
    expect(tags(TOOL_CALL_CONTENT_V2, 'type')).toEqual(branchTags('ToolCallContent', 'type'));
    const states = SESSION_UPDATES_V2.filter(
      (u) => (u as { sessionUpdate: string }).sessionUpdate === 'state_update',
    );
    expect(tags(states, 'state')).toEqual(branchTags('StateUpdate', 'state'));
  });
});

describeAgreement(v2, runs(150), true);
describeLeniency(v2, runs(150));
describeAgreement(v2Unstable, runs(40), false);

// ------------------------------------------------------------------ what v2 brings

const SESSION = 'sess_1';

function parseUpdate(update: unknown) {
  return parseWith<{ update: Record<string | symbol, unknown> }>(V.parseUpdateSessionNotification, {
    sessionId: SESSION,
    update,
  });
}

describe('v2 leniency rules on real definitions', () => {
  it("an unknown sessionUpdate is valid for the schema's `other` branch, and kept marked UNKNOWN_VARIANT", () => {
    const update = { sessionUpdate: '_zed/hologram', frames: 3 };
    expect(V.checkUpdateSessionNotification({ sessionId: SESSION, update })).toBe(true);
    const r = parseUpdate(update);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.update).toBe(update);
    expect(r.value.update[UNKNOWN_VARIANT]).toBe(true);
    expect(isUnknownVariant(r.value.update)).toBe(true);
    expect(r.diagnostics).toEqual([
      { kind: 'unknown-variant', path: 'update', message: expect.stringContaining('_zed/hologram') },
    ]);
    // A known tag is never taken for `other`: an invalid plan_update is an error, not an unknown variant.
    expect(parseUpdate({ sessionUpdate: 'plan_update' })).toMatchObject({
      ok: false,
      error: { path: 'update.plan' },
    });
    expect(parseUpdate({ sessionUpdate: 5 })).toMatchObject({
      ok: false,
      error: { path: 'update.sessionUpdate' },
    });
  });

  it('unknown tool call status, tool kind, content type and stop reason are kept and reported', () => {
    const tool = parseUpdate({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c',
      status: 'queued',
      kind: 'teleport',
      content: [{ type: 'hologram', frames: 2 }],
    });
    expect(tool.ok && tool.value.update).toMatchObject({ status: 'queued', kind: 'teleport' });
    expect(tool.diagnostics.map((d) => [d.kind, d.path])).toEqual([
      ['unknown-value', 'update.kind'],
      ['unknown-value', 'update.status'],
      ['unknown-variant', 'update.content[0]'],
    ]);
    const idle = parseUpdate({
      sessionUpdate: 'state_update',
      state: 'idle',
      stopReason: 'budget_exhausted',
    });
    expect(idle.ok && isUnknownVariant(idle.value.update)).toBe(true);
    expect(idle.diagnostics.map((d) => [d.kind, d.path])).toEqual([['unknown-variant', 'update']]);
    // An idle update without a stop reason is the schema's `none` branch: nothing to report.
    expect(parseUpdate({ sessionUpdate: 'state_update', state: 'idle' })).toMatchObject({
      ok: true,
      diagnostics: [],
    });
  });

  it("an `other` branch keeps the fields it requires (AuthMethod's methodId and name)", () => {
    const custom = { type: '_acme/sso', methodId: 'sso', name: 'Company SSO', realm: 'acme' };
    const r = parseWith<unknown>(V.parseAuthMethod, structuredClone(custom));
    expect(r.ok && isUnknownVariant(r.value)).toBe(true);
    // The mark is a symbol key, invisible on the wire (structuredClone drops it).
    expect(r.ok && structuredClone(r.value)).toEqual(custom);
    expect(parseWith(V.parseAuthMethod, { type: '_acme/sso', methodId: 'sso' })).toMatchObject({
      ok: false,
      error: { path: 'name' },
    });
  });

  it('minItems: an empty prompt or permission option list is rejected with its path', () => {
    expect(parseWith(V.parsePromptRequest, { sessionId: SESSION, prompt: [] })).toMatchObject({
      ok: false,
      error: { path: 'prompt', message: 'must have at least 1 item' },
    });
    expect(
      parseWith(V.parseRequestPermissionRequest, { sessionId: SESSION, title: 'Run?', options: [] }),
    ).toMatchObject({ ok: false, error: { path: 'options' } });
  });

  it('minItems after skip-invalid-items: a group left without valid options is not repaired to []', () => {
    const group = (options: unknown[]) => ({ groupId: 'g', name: 'Group', options });
    const kept = parseWith<{ options: unknown[] }>(
      V.parseSessionConfigSelectGroup,
      group([{ value: 'a', name: 'A' }, { value: 1 }]),
    );
    expect(kept.ok && kept.value.options).toEqual([{ value: 'a', name: 'A' }]);
    expect(parseWith(V.parseSessionConfigSelectGroup, group([{ value: 1 }]))).toMatchObject({
      ok: false,
      error: { path: 'options' },
    });
  });

  it('base64 bytes are an annotation: terminal output is carried as the string sent', () => {
    const chunk = { sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: 'not base64!' };
    expect(V.checkUpdateSessionNotification({ sessionId: SESSION, update: chunk })).toBe(true);
    expect(parseUpdate(structuredClone(chunk))).toMatchObject({ ok: true, diagnostics: [] });
  });

  it('patch fields keep `null` (it means "clear") and drop an invalid value (it means "unchanged")', () => {
    const r = parseUpdate({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c',
      title: null,
      content: null,
      capabilities: 5,
    });
    expect(r.ok && r.value.update).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c',
      title: null,
      content: null,
    });
    expect(r.diagnostics.map((d) => [d.kind, d.path])).toEqual([['defaulted', 'update.capabilities']]);
  });

  it('typed error data: UnsupportedProtocolVersion and SessionNotFound parse, other data is kept', () => {
    const unsupported = { code: -32022, message: 'x', data: { requested: 0, supported: [2] } };
    expect(parseWith(V.parseError, structuredClone(unsupported))).toEqual({
      ok: true,
      value: unsupported,
      diagnostics: [],
    });
    expect(parseWith(V.parseError, { code: -32603, message: 'x', data: 'free text' })).toMatchObject({
      ok: true,
    });
  });

  it('an initialize carrying the v1 fields beside the v2 ones is valid for both schemas', () => {
    const params = METHOD_EXAMPLES_V2.initialize!.params[2];
    expect(V.checkInitializeRequest(params)).toBe(true);
    expect(V1.checkInitializeRequest(params)).toBe(true);
    expect(parseWith(V.parseInitializeRequest, structuredClone(params))).toMatchObject({
      ok: true,
      diagnostics: [],
    });
  });
});
