/**
 * `acp check --client`: the checker as a scripted agent that the client under test launches. It
 * answers `initialize` and `session/new`, and during the first prompt turn runs its scenarios
 * against the client — fs inside and outside the session's directory, a terminal, a permission
 * question with every option kind, unknown update variants and enum values, a large and a deep
 * message, an unknown method — then ends the turn with a summary and reports.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validators, type ByteChannel } from '@acp-kit/protocol';
import { flag, notApplicable, pass, SCHEMA_V1, SPEC, type Judgement } from '../checks/check.js';
import {
  isObject,
  type CheckResult,
  type CheckReport,
  type CheckStatus,
  type JsonObject,
  type Rule,
} from '../types.js';
import { FrameLog, WirePeer } from '../wire/peer.js';
import { evidenceOf } from '../evidence.js';
import type { Step } from '../observations.js';

const SESSION_ID = 'acp-check-session';

export interface ClientCheckOptions {
  /** How long one request to the client may take (default 30 s; a person may be answering). */
  requestTimeoutMs?: number;
}

/** The client's side of the conversation: requests it sent, waited for by method. */
class Inbox {
  private frames: JsonObject[] = [];
  private wake: (() => void) | undefined;
  push(frame: JsonObject): void {
    this.frames.push(frame);
    this.wake?.();
  }
  async next(peer: WirePeer, method: string): Promise<JsonObject | undefined> {
    for (;;) {
      const index = this.frames.findIndex((f) => f.method === method);
      if (index >= 0) return this.frames.splice(index, 1)[0];
      if (peer.isClosed) return undefined;
      await Promise.race([new Promise<void>((resolve) => (this.wake = resolve)), peer.closed]);
    }
  }
}

/** Runs the scenarios against the client on `channel`; resolves with the report after the turn. */
export async function serveClientChecks(
  channel: ByteChannel,
  options: ClientCheckOptions = {},
): Promise<CheckReport> {
  const timeout = options.requestTimeoutMs ?? 30_000;
  const peer = new WirePeer(channel, 'client', new FrameLog());
  const inbox = new Inbox();
  const results: CheckResult[] = [];
  const record = (name: string, title: string, rule: Rule, judged: Judgement): void => {
    results.push({ name, title, rule, ...judged });
  };
  peer.onRequest = (frame) => {
    if (['initialize', 'session/new', 'session/prompt'].includes(String(frame.method))) {
      inbox.push(frame);
      return undefined;
    }
    if (frame.method === 'session/close' || frame.method === 'authenticate') return { result: {} };
    return { error: { code: -32601, message: 'Method not found' } };
  };
  const ask = async (method: string, params: unknown): Promise<Step> => {
    const t = peer.now();
    const sent = { jsonrpc: '2.0', id: `check-${results.length}-${method}`, method, params };
    return { t, sent, answer: await peer.requestFrame(sent, timeout) };
  };
  const result = (step: Step): JsonObject | undefined =>
    step.answer.kind === 'response' && isObject(step.answer.frame.result)
      ? step.answer.frame.result
      : undefined;

  const init = await inbox.next(peer, 'initialize');
  const target = describeClient(init);
  if (!init) return report(target, results);
  const params = isObject(init.params) ? init.params : {};
  record(
    'client.initialize',
    'initialize well formed',
    { text: 'initialize params match InitializeRequest', url: `${SCHEMA_V1}/InitializeRequest` },
    validators.checkInitializeRequest(params)
      ? pass('strictly valid')
      : flag('fail', 'initialize params break the schema', JSON.stringify(params).slice(0, 400)),
  );
  peer.respond(init.id, {
    result: {
      protocolVersion: 1,
      agentCapabilities: {},
      agentInfo: { name: 'acp-check', version: '0.1.0' },
      authMethods: [],
    },
  });
  const caps = isObject(params.clientCapabilities) ? params.clientCapabilities : {};
  const fs = isObject(caps.fs) ? caps.fs : {};

  const opened = await inbox.next(peer, 'session/new');
  if (!opened) return report(target, results);
  const cwd =
    isObject(opened.params) && typeof opened.params.cwd === 'string' ? opened.params.cwd : process.cwd();
  peer.respond(opened.id, { result: { sessionId: SESSION_ID } });
  const prompt = await inbox.next(peer, 'session/prompt');
  if (!prompt) return report(target, results);

  const FS_RULE = {
    text: 'fs/* within the session: read and write files as asked; SHOULD refuse paths outside its roots',
    url: `${SPEC}/file-system`,
  };
  const outside = await mkdtemp(join(tmpdir(), 'acp-check-outside-'));
  const inside = join(cwd, `.acp-check-${process.pid}.txt`);
  try {
    if (fs.readTextFile === true) {
      await writeFile(inside, 'line one\nline two\n');
      const read = await ask('fs/read_text_file', { sessionId: SESSION_ID, path: inside });
      record(
        'client.fs-read',
        'fs/read_text_file inside the session',
        FS_RULE,
        result(read)?.content === 'line one\nline two\n'
          ? pass('read back what is on disk')
          : flag('fail', 'did not return the file', clientEvidence(read)),
      );
      await writeFile(join(outside, 'secret.txt'), 'outside\n');
      const away = await ask('fs/read_text_file', {
        sessionId: SESSION_ID,
        path: join(outside, 'secret.txt'),
      });
      record(
        'client.fs-read-outside',
        'fs/read_text_file outside the session',
        FS_RULE,
        result(away)
          ? flag('warn', 'served a file outside the session directory', clientEvidence(away))
          : pass('refused'),
      );
    } else
      record(
        'client.fs-read',
        'fs/read_text_file inside the session',
        FS_RULE,
        notApplicable('fs.readTextFile not advertised'),
      );
    if (fs.writeTextFile === true) {
      const write = await ask('fs/write_text_file', {
        sessionId: SESSION_ID,
        path: inside,
        content: 'written\n',
      });
      const disk = await readFile(inside, 'utf8').catch(() => undefined);
      record(
        'client.fs-write',
        'fs/write_text_file inside the session',
        FS_RULE,
        refused(write) ??
          (result(write) && disk === 'written\n'
            ? pass('the file holds what was written')
            : flag('fail', 'the write did not land', clientEvidence(write))),
      );
      const away = await ask('fs/write_text_file', {
        sessionId: SESSION_ID,
        path: join(outside, 'new.txt'),
        content: 'x',
      });
      const landed = await readFile(join(outside, 'new.txt'), 'utf8').catch(() => undefined);
      record(
        'client.fs-write-outside',
        'fs/write_text_file outside the session',
        FS_RULE,
        landed !== undefined
          ? flag('warn', 'wrote outside the session directory', clientEvidence(away))
          : pass('refused'),
      );
    } else
      record(
        'client.fs-write',
        'fs/write_text_file inside the session',
        FS_RULE,
        notApplicable('fs.writeTextFile not advertised'),
      );
  } finally {
    await rm(inside, { force: true });
    await rm(outside, { recursive: true, force: true });
  }

  const TERMINAL_RULE = {
    text: 'terminal: create runs the command; wait_for_exit, output and release answer',
    url: `${SPEC}/terminals`,
  };
  if (caps.terminal === true) {
    const created = await ask('terminal/create', {
      sessionId: SESSION_ID,
      command: process.execPath,
      args: ['-e', 'console.log("acp-check-terminal")'],
      cwd,
    });
    const terminalId = result(created)?.terminalId;
    if (typeof terminalId !== 'string')
      record(
        'client.terminal',
        'terminal lifecycle',
        TERMINAL_RULE,
        refused(created) ?? flag('fail', 'terminal/create gave no terminalId', clientEvidence(created)),
      );
    else {
      const waited = await ask('terminal/wait_for_exit', { sessionId: SESSION_ID, terminalId });
      const output = await ask('terminal/output', { sessionId: SESSION_ID, terminalId });
      const released = await ask('terminal/release', { sessionId: SESSION_ID, terminalId });
      const text = result(output)?.output;
      record(
        'client.terminal',
        'terminal lifecycle',
        TERMINAL_RULE,
        result(waited)?.exitCode !== 0
          ? flag('fail', 'wait_for_exit did not report exit code 0', clientEvidence(waited))
          : typeof text !== 'string' || !text.includes('acp-check-terminal')
            ? flag('fail', 'the output lacks what the command printed', clientEvidence(output))
            : !result(released)
              ? flag('fail', 'terminal/release failed', clientEvidence(released))
              : pass('created, waited, read and released'),
      );
    }
  } else
    record('client.terminal', 'terminal lifecycle', TERMINAL_RULE, notApplicable('terminal not advertised'));

  const permissionOptions = ['allow_once', 'allow_always', 'reject_once', 'reject_always'].map((kind) => ({
    optionId: `opt-${kind}`,
    name: kind.replace('_', ' '),
    kind,
  }));
  const asked = await ask('session/request_permission', {
    sessionId: SESSION_ID,
    toolCall: {
      toolCallId: 'acp-check-permission',
      title: 'acp check: a question with every option kind',
      kind: 'edit',
      status: 'pending',
    },
    options: permissionOptions,
  });
  const outcome = result(asked)?.outcome;
  const chosen = isObject(outcome) ? outcome : undefined;
  record(
    'client.permission',
    'permission question answered',
    {
      text: 'the outcome is one of the options offered, or cancelled',
      url: `${SCHEMA_V1}/RequestPermissionResponse`,
    },
    !result(asked) || !validators.checkRequestPermissionResponse(result(asked))
      ? flag('fail', 'no valid answer', clientEvidence(asked))
      : chosen?.outcome === 'selected' && !permissionOptions.some((o) => o.optionId === chosen.optionId)
        ? flag('fail', 'selected an option that was not offered', clientEvidence(asked))
        : pass(`answered ${chosen?.outcome === 'selected' ? String(chosen.optionId) : 'cancelled'}`),
  );

  const alive = async (name: string, title: string, rule: Rule, send: () => void): Promise<void> => {
    send();
    const ping = await ask('acp_check/no_such_method', {});
    const code =
      ping.answer.kind === 'response' && isObject(ping.answer.frame.error)
        ? ping.answer.frame.error.code
        : undefined;
    record(
      name,
      title,
      rule,
      ping.answer.kind !== 'response'
        ? flag('fail', 'the client stopped answering afterwards', clientEvidence(ping))
        : pass(`still answering (-32601: ${code === -32601})`),
    );
  };
  const update = (value: JsonObject): void =>
    peer.notify('session/update', { sessionId: SESSION_ID, update: value });
  await alive(
    'client.unknown-variants',
    'unknown update variants and enum values kept',
    {
      text: 'clients keep unknown update kinds, tool kinds and content types (newer agents send them)',
      url: `${SPEC}/extensibility`,
    },
    () => {
      update({ sessionUpdate: 'acp_check_future_update', detail: 'a kind from a newer schema' });
      update({
        sessionUpdate: 'tool_call',
        toolCallId: 'acp-check-future',
        title: 'future kind',
        kind: 'acp_check_future_kind',
        status: 'pending',
        content: [{ type: 'acp_check_future_content' }],
      });
    },
  );
  await alive(
    'client.large-deep',
    'a 1 MiB message and a 64-level deep one',
    {
      text: 'large and deeply nested frames are handled (or refused) without breaking the connection',
      url: `${SPEC}/overview`,
    },
    () => {
      update({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'x'.repeat(1024 * 1024) },
      });
      let deep: JsonObject = { leaf: true };
      for (let i = 0; i < 64; i++) deep = { d: deep };
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: ' ' }, _meta: deep });
    },
  );
  const unknown = await ask('acp_check/no_such_method', {});
  const code =
    unknown.answer.kind === 'response' && isObject(unknown.answer.frame.error)
      ? unknown.answer.frame.error.code
      : undefined;
  record(
    'client.unknown-method',
    'unknown method → -32601',
    {
      text: 'MUST answer an unknown method with -32601',
      url: 'https://www.jsonrpc.org/specification#error_object',
    },
    code === -32601
      ? pass('answered -32601')
      : flag('fail', `answered ${String(code)}`, clientEvidence(unknown)),
  );

  const done = report(target, results);
  update({
    sessionUpdate: 'agent_message_chunk',
    content: {
      type: 'text',
      text: `acp check --client: ${done.counts.pass} passed, ${done.counts.fail} failed, ${done.counts.warn} warned, ${done.counts['n/a']} not applicable.`,
    },
  });
  peer.respond(prompt.id, { result: { stopReason: 'end_turn' } });
  return done;
}

/** A step's answer as evidence: here the answering side is the client. */
function clientEvidence(step: Step): string {
  if (step.answer.kind !== 'response')
    return `→client ${evidenceOf(step.sent)} (${step.answer.kind === 'timeout' ? 'no answer' : 'connection closed'})`;
  return `client→ ${evidenceOf(step.answer.frame)}`;
}

/** A request the client refused with an error: its policy (or its person) said no. Not a protocol fault. */
function refused(step: Step): Judgement | undefined {
  if (step.answer.kind !== 'response' || !isObject(step.answer.frame.error)) return undefined;
  return flag(
    'warn',
    `refused by the client: ${String(step.answer.frame.error.message)}`,
    clientEvidence(step),
  );
}

function describeClient(init: JsonObject | undefined): string {
  const info = isObject(init?.params) && isObject(init.params.clientInfo) ? init.params.clientInfo : {};
  return init
    ? `client ${String(info.name ?? '(unnamed)')} ${String(info.version ?? '')}`.trim()
    : 'client (sent no initialize)';
}

function report(target: string, results: CheckResult[]): CheckReport {
  const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, warn: 0, 'n/a': 0 };
  for (const r of results) counts[r.status]++;
  return { version: 1, target, offline: false, results, counts };
}
