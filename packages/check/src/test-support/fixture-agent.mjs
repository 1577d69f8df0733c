#!/usr/bin/env node
// A small ACP agent (v1 and v2, no model) that is correct unless told to seed one defect:
// `node fixture-agent.mjs DEFECT`. Each defect breaks exactly what one check looks at; the
// checker's tests run it once per defect. Plain JavaScript over raw NDJSON on purpose: a
// broken agent must be able to send what a typed connection would refuse to.
import { createInterface } from 'node:readline';

const defect = process.argv[2] ?? 'none';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Writes frames in one write (a peer then reads them together). */
const send = (...frames) =>
  process.stdout.write(frames.map((frame) => `${JSON.stringify({ jsonrpc: '2.0', ...frame })}\n`).join(''));
const update = (sessionId, value) => send({ method: 'session/update', params: { sessionId, update: value } });
const text = (value) => ({ type: 'text', text: value });

let version; // 1 or 2 once initialized
let nextSession = 1;
let nextToolCall = 1;
let nextRequest = 1;
let turns = 0; // v1 turns on this connection: defects of "the turn" hit the first only
const sessions = new Map(); // id -> { cwd, history: update[], cancelled, turn }
const waiting = new Map(); // our request id -> resolve

/** Sends a request, and `then` (frames) in the same write, and waits for its answer. */
function request(method, params, id = `fixture-${nextRequest++}`, then = []) {
  return new Promise((resolve) => {
    waiting.set(JSON.stringify(id), resolve);
    send({ id, method, params }, ...then);
  });
}

const V1_INIT = {
  protocolVersion: 1,
  agentCapabilities: {
    loadSession: true,
    sessionCapabilities: { list: {}, resume: {}, close: {} },
  },
  authMethods:
    defect === 'auth-duplicate-id'
      ? [
          { id: 'login', name: 'Log in' },
          { id: 'login', name: 'Log in again' },
        ]
      : [{ id: 'login', name: 'Log in', description: 'A fixture login' }],
  agentInfo: { name: 'fixture-agent', version: '1.0.0' },
};
if (defect === 'caps-invalid') V1_INIT.agentCapabilities.loadSession = 'yes';

const V2_INIT = {
  protocolVersion: 2,
  info: { name: 'fixture-agent', version: '1.0.0' },
  capabilities: { session: {} },
};

function validNew(params) {
  return (
    typeof params?.cwd === 'string' &&
    params.cwd.startsWith('/') &&
    (params.mcpServers === undefined || Array.isArray(params.mcpServers))
  );
}

function record(sessionId, value) {
  sessions.get(sessionId)?.history.push(value);
  update(sessionId, value);
}

async function v1Turn(id, sessionId, prompt) {
  const session = sessions.get(sessionId);
  session.cancelled = false;
  const first = ++turns === 1;
  session.history.push({ sessionUpdate: 'user_message_chunk', content: prompt[0] ?? text('') });
  if (first && defect === 'slow-first-update') await sleep(1200);
  if (first && defect === 'fs-call')
    await request('fs/read_text_file', { sessionId, path: `${session.cwd}/README.md` });
  record(sessionId, { sessionUpdate: 'agent_message_chunk', content: text('Looking at the files. ') });
  const toolCallId = `call-${nextToolCall++}`;
  update(sessionId, {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: 'List files',
    kind: 'read',
    status: 'pending',
  });
  const asking = {
    sessionId,
    toolCall: { toolCallId },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  };
  const permissionId = `fixture-${nextRequest++}`;
  // A second request under the id of the one still pending. Both frames go out in one write:
  // in two, a loaded machine may let the client answer the first before it reads the second,
  // and then the id is no longer pending when it comes again.
  const reuse = !first && defect === 'reuse-request-id';
  const answer = request(
    'session/request_permission',
    asking,
    permissionId,
    reuse ? [{ id: permissionId, method: '_fixture/ping', params: {} }] : [],
  );
  const outcome = (await answer).result?.outcome;
  const allowed = outcome?.outcome === 'selected' && outcome.optionId === 'allow';
  if (!allowed && defect !== 'run-after-cancelled-permission') {
    update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
  } else {
    update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
    if (!(first && defect === 'unfinished-tool')) {
      update(sessionId, {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: 'completed',
        content: [{ type: 'content', content: text('README.md') }],
      });
    }
    if (first && defect === 'reuse-tool-id') {
      update(sessionId, {
        sessionUpdate: 'tool_call',
        toolCallId,
        title: 'Again',
        kind: 'read',
        status: 'completed',
      });
    }
  }
  if (session.cancelled || !allowed) {
    if (defect === 'cancel-error') send({ id, error: { code: -32800, message: 'Request cancelled' } });
    else send({ id, result: { stopReason: 'cancelled' } });
    if (defect === 'late-after-cancel')
      update(sessionId, { sessionUpdate: 'agent_message_chunk', content: text('late') });
    return;
  }
  record(sessionId, { sessionUpdate: 'agent_message_chunk', content: text('There is a README.') });
  send({ id, result: { stopReason: 'end_turn' } });
  if (first && defect === 'late-update')
    update(sessionId, { sessionUpdate: 'agent_message_chunk', content: text('late') });
}

async function v2Turn(id, sessionId) {
  const messageId = `msg-${nextRequest++}`;
  send({ id, result: { messageId } });
  if (defect !== 'v2-idle-without-running')
    update(sessionId, { sessionUpdate: 'state_update', state: 'running' });
  update(sessionId, {
    sessionUpdate: 'agent_message_chunk',
    messageId: `${messageId}-reply`,
    content: text('Hello.'),
  });
  update(sessionId, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
}

const failure = (id, code, message) => send({ id, error: { code, message } });

async function onRequest(id, method, params) {
  if (version === undefined && method !== 'initialize') {
    if (defect === 'serve-before-init' && method === 'session/new')
      return send({ id, result: { sessionId: 'early' } });
    return failure(id, -32600, 'Not initialized: send initialize first');
  }
  switch (method) {
    case 'initialize': {
      if (defect === 'slow-init' && (params?.protocolVersion ?? 1) < 2) await sleep(1200);
      if (params?.protocolVersion >= 2) {
        if (defect === 'v2-error') return failure(id, -32603, 'Internal error');
        version = 2;
        return send({ id, result: V2_INIT });
      }
      if (defect === 'init-error') return failure(id, -32603, 'Internal error');
      version = 1;
      return send({ id, result: V1_INIT });
    }
    case 'session/new': {
      if (!validNew(params)) {
        if (defect === 'no-param-validation') return send({ id, result: { sessionId: 'unchecked' } });
        return failure(id, -32602, 'Invalid params: cwd must be an absolute path');
      }
      if (defect === 'new-fails') return failure(id, -32603, 'Internal error');
      const sessionId = `sess-${nextSession++}`;
      sessions.set(sessionId, { cwd: params.cwd, history: [] });
      send({ id, result: { sessionId } });
      if (defect === 'invalid-update')
        update(sessionId, { sessionUpdate: 'available_commands_update', availableCommands: 'none' });
      return;
    }
    case 'session/list':
      if (defect === 'list-error') return failure(id, -32603, 'Internal error');
      return send({
        id,
        result: { sessions: [...sessions].map(([sessionId, s]) => ({ sessionId, cwd: s.cwd })) },
      });
    case 'session/load': {
      const session = sessions.get(params?.sessionId);
      if (!session) return failure(id, -32002, 'Session not found');
      if (defect !== 'load-no-replay') for (const item of session.history) update(params.sessionId, item);
      return send({ id, result: {} });
    }
    case 'session/resume':
      if (defect === 'resume-error') return failure(id, -32603, 'Internal error');
      return send({ id, result: {} });
    case 'session/close':
      if (defect === 'close-error') return failure(id, -32603, 'Internal error');
      sessions.delete(params?.sessionId);
      return send({ id, result: {} });
    case 'session/prompt': {
      if (!sessions.has(params?.sessionId)) return failure(id, -32002, 'Session not found');
      return version === 2 ? v2Turn(id, params.sessionId) : v1Turn(id, params.sessionId, params.prompt ?? []);
    }
    default:
      if (defect === 'unknown-method-wrong-code') return failure(id, -32603, 'Internal error');
      return failure(id, -32601, 'Method not found');
  }
}

function onNotification(method, params) {
  if (method === 'session/cancel') {
    const session = sessions.get(params?.sessionId);
    if (session) session.cancelled = true;
  } else if (method !== 'session/cancel' && defect === 'answer-notification' && version !== undefined) {
    failure(null, -32601, 'Method not found');
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return;
  const frame = JSON.parse(line);
  if (frame.method === undefined) {
    const resolve = waiting.get(JSON.stringify(frame.id));
    waiting.delete(JSON.stringify(frame.id));
    resolve?.(frame);
  } else if ('id' in frame) void onRequest(frame.id, frame.method, frame.params);
  else onNotification(frame.method, frame.params);
});
