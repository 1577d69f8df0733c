#!/usr/bin/env node
/* global setInterval */
// A scriptable ACP agent speaking raw NDJSON JSON-RPC, for tests of the client engine against a
// real child process. Options come as JSON in argv[2]. A prompt whose first text block is a JSON
// array is run as a script of steps (see `runStep`); any other prompt is echoed back.
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

const opts = JSON.parse(process.argv[2] ?? '{}');
const sessions = loadState();
let nextId = 1;
const pending = new Map();
const cancelWaiters = new Map();
// `--login` (a terminal auth method's extra argument): records a login in `opts.loginFile` and exits.
if (process.argv.includes('--login')) {
  writeFileSync(opts.loginFile, 'yes');
  process.exit(0);
}
let authenticated = !opts.requireAuth || (opts.loginFile !== undefined && existsSync(opts.loginFile));

function loadState() {
  if (opts.stateFile && existsSync(opts.stateFile))
    return new Map(Object.entries(JSON.parse(readFileSync(opts.stateFile, 'utf8'))));
  return new Map();
}
function saveState() {
  if (opts.stateFile) writeFileSync(opts.stateFile, JSON.stringify(Object.fromEntries(sessions)));
}
function send(message) {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
}
function notify(method, params) {
  send({ method, params });
}
function request(method, params) {
  const id = `a${nextId++}`;
  send({ id, method, params });
  return new Promise((resolve) => pending.set(id, resolve));
}
function update(sessionId, u) {
  notify('session/update', { sessionId, update: u });
}
function text(sessionId, t, messageId) {
  update(sessionId, {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text: t },
    ...(messageId ? { messageId } : {}),
  });
}

const caps = opts.caps ?? {
  loadSession: true,
  promptCapabilities: { embeddedContext: true, image: false },
  sessionCapabilities: { list: {}, close: {}, resume: {}, delete: {} },
};

async function handle(msg) {
  const { id, method, params } = msg;
  const reply = (result) => send({ id, result });
  const fail = (error) => send({ id, error });
  switch (method) {
    case 'initialize':
      if (opts.recordInit) writeFileSync(opts.recordInit, JSON.stringify(params));
      if (opts.hangInit) return;
      return reply({
        protocolVersion: opts.protocolVersion ?? 1,
        agentCapabilities: caps,
        authMethods: opts.authMethods ?? [],
        agentInfo: { name: 'fake-agent', version: '1.0.0' },
      });
    case 'authenticate':
      // `loginPrints`: a login that prints a URL (stdout, not JSON, and stderr) and waits for the user.
      if (opts.loginPrints !== undefined) {
        process.stdout.write(`Open this URL to sign in: ${opts.loginPrints}\n`);
        process.stderr.write(`waiting for the browser…\n`);
        return;
      }
      // `requireApiKey`: only this key, passed as `_meta["api-key"]`, signs in: a string (Gemini
      // CLI), or `{ apiKey }` with `apiKeyAsObject` (codex-acp, which fails with -32603 otherwise).
      if (opts.requireApiKey !== undefined) {
        const given = opts.apiKeyAsObject ? params?._meta?.['api-key']?.apiKey : params?._meta?.['api-key'];
        if (given === undefined && opts.apiKeyAsObject)
          return fail({
            code: -32603,
            message: 'Internal error: CODEX_API_KEY or OPENAI_API_KEY is not set',
          });
        if (given !== opts.requireApiKey) return fail({ code: -32000, message: 'Invalid API key' });
      }
      authenticated = true;
      return reply({});
    case 'session/new': {
      if (opts.hangNewSession) return;
      if (!authenticated || opts.newSessionError)
        return fail(
          opts.newSessionError ?? { code: -32000, message: 'Authentication required', data: opts.authData },
        );
      const sessionId = `fake-${process.pid}-${nextId++}`;
      sessions.set(sessionId, { cwd: params.cwd, history: [] });
      saveState();
      reply({
        sessionId,
        modes: {
          currentModeId: 'ask',
          availableModes: [
            { id: 'ask', name: 'Ask' },
            { id: 'code', name: 'Code' },
          ],
        },
        configOptions: [{ id: 'fast', name: 'Fast', type: 'boolean', currentValue: false }],
      });
      update(sessionId, {
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          { name: 'review', description: 'Review code', input: { hint: 'what to review' } },
        ],
      });
      return;
    }
    case 'session/load': {
      const s = sessions.get(params.sessionId);
      if (!s) return fail({ code: -32002, message: 'Session not found' });
      if (opts.loadReplay) {
        // `count` updates `everyMs` apart, then an answer, or nothing when `hang`.
        const { count, everyMs, hang } = opts.loadReplay;
        for (let i = 0; i < count; i++) {
          await new Promise((resolve) => setTimeout(resolve, everyMs));
          text(params.sessionId, `replayed ${i} `);
        }
        if (!hang) reply({});
        return;
      }
      for (const h of s.history) {
        update(params.sessionId, {
          sessionUpdate: 'user_message_chunk',
          content: { type: 'text', text: h.user },
        });
        text(params.sessionId, h.agent);
      }
      return reply({});
    }
    case 'session/resume':
      if (opts.hangResume) return;
      if (!sessions.has(params.sessionId)) return fail({ code: -32002, message: 'Session not found' });
      return reply({});
    case 'session/list':
      return reply({
        sessions: [...sessions].map(([sessionId, s]) => ({
          sessionId,
          cwd: s.cwd,
          title: `session ${sessionId}`,
        })),
      });
    case 'session/close':
      return reply({});
    case 'session/delete':
      sessions.delete(params.sessionId);
      saveState();
      return reply({});
    case 'session/set_mode':
      reply({});
      update(params.sessionId, { sessionUpdate: 'current_mode_update', currentModeId: params.modeId });
      return;
    case 'session/set_config_option':
      return reply({
        configOptions: [{ id: params.configId, name: 'Fast', type: 'boolean', currentValue: params.value }],
      });
    case 'session/prompt':
      return prompt(params).then(reply, (error) =>
        fail({
          code: error?.code ?? -32603,
          message: String(error?.message ?? error),
          ...(error?.data !== undefined ? { data: error.data } : {}),
        }),
      );
    case 'session/cancel': {
      // `cancelFile`: each cancelled session id is appended there.
      if (opts.cancelFile) appendFileSync(opts.cancelFile, `${params.sessionId}\n`);
      const waiter = cancelWaiters.get(params.sessionId);
      if (waiter) waiter();
      return;
    }
    default:
      if (id !== undefined) fail({ code: -32601, message: 'Method not found' });
  }
}

async function prompt(params) {
  const { sessionId } = params;
  if (opts.promptError) throw Object.assign(new Error(opts.promptError.message), opts.promptError);
  const first = params.prompt.find((b) => b.type === 'text')?.text ?? '';
  let cancelled = false;
  const cancelled$ = new Promise((resolve) =>
    cancelWaiters.set(sessionId, () => {
      cancelled = true;
      resolve();
    }),
  );
  const s = sessions.get(sessionId) ?? { history: [] };
  let stopReason = 'end_turn';
  if (first.trim().startsWith('[')) {
    const steps = JSON.parse(first);
    for (const step of steps) {
      const r = await runStep(sessionId, step, cancelled$);
      if (r?.stop) {
        stopReason = r.stop;
        break;
      }
    }
  } else {
    const blocks = params.prompt.map((b) => b.type).join(',');
    text(sessionId, `echo: ${first}`, 'm1');
    text(sessionId, ` [${blocks}]`, 'm1');
    s.history.push({ user: first, agent: `echo: ${first}` });
    saveState();
  }
  cancelWaiters.delete(sessionId);
  return { stopReason: cancelled ? 'cancelled' : stopReason };
}

async function runStep(sessionId, step, cancelled$) {
  if (step.update) update(sessionId, step.update);
  // An update read from an environment variable (keeps test secrets out of the prompt and argv).
  if (step.updateEnv) update(sessionId, JSON.parse(process.env[step.updateEnv]));
  if (step.raw !== undefined) process.stdout.write(step.raw + '\n');
  if (step.deepUpdate) {
    // A message chunk whose `_meta.deep` is nested `deepUpdate` arrays deep (written by hand:
    // JSON.stringify cannot), its innermost value "bottom".
    const depth = step.deepUpdate;
    const params = `{"sessionId":${JSON.stringify(sessionId)},"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"deep"},"_meta":{"deep":${'['.repeat(depth)}"bottom"${']'.repeat(depth)}}}}`;
    process.stdout.write(`{"jsonrpc":"2.0","method":"session/update","params":${params}}\n`);
  }
  if (step.stderr) process.stderr.write(step.stderr);
  if (step.text) text(sessionId, step.text, step.messageId);
  if (step.flood) for (let i = 0; i < step.flood; i++) text(sessionId, `x${i} `, 'flood');
  if (step.request) {
    const result = await request(step.request, { sessionId, ...step.params });
    text(sessionId, `RESULT ${JSON.stringify(result)}\n`, `r${nextId++}`);
    if (step.saveTerminal && result.result) step.params.terminalId = result.result.terminalId;
  }
  if (step.parallel) {
    // `count` copies of one request at once (tool call ids numbered), reported together.
    const { count, request: method, params } = step.parallel;
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        request(method, {
          sessionId,
          ...params,
          ...(params.toolCall
            ? { toolCall: { ...params.toolCall, toolCallId: `${params.toolCall.toolCallId}-${i}` } }
            : {}),
        }),
      ),
    );
    text(sessionId, `RESULT ${JSON.stringify(results)}\n`, `r${nextId++}`);
  }
  if (step.detached) {
    // A request the turn does not wait for; its answer is reported whenever it comes.
    void request(step.detached, { sessionId, ...step.params }).then((result) =>
      text(sessionId, `LATE ${JSON.stringify(result)}\n`, `l${nextId++}`),
    );
  }
  if (step.terminal) {
    const created = await request('terminal/create', { sessionId, ...step.terminal });
    text(sessionId, `RESULT ${JSON.stringify(created)}\n`, `r${nextId++}`);
    if (created.result) {
      const terminalId = created.result.terminalId;
      const exit = await request('terminal/wait_for_exit', { sessionId, terminalId });
      const out = await request('terminal/output', { sessionId, terminalId });
      text(sessionId, `RESULT ${JSON.stringify({ exit, out })}\n`, `r${nextId++}`);
      if (!step.keep) await request('terminal/release', { sessionId, terminalId });
    }
  }
  if (step.terminalStart) {
    const created = await request('terminal/create', { sessionId, ...step.terminalStart });
    text(sessionId, `RESULT ${JSON.stringify(created)}\n`, `r${nextId++}`);
  }
  if (step.terminalKill) {
    const created = await request('terminal/create', { sessionId, ...step.terminalKill });
    const terminalId = created.result.terminalId;
    text(sessionId, `RESULT ${JSON.stringify(created)}\n`, `r${nextId++}`);
    if (step.releaseOnly) {
      await request('terminal/release', { sessionId, terminalId });
    } else {
      await request('terminal/kill', { sessionId, terminalId });
      const exit = await request('terminal/wait_for_exit', { sessionId, terminalId });
      text(sessionId, `RESULT ${JSON.stringify(exit)}\n`, `r${nextId++}`);
      await request('terminal/release', { sessionId, terminalId });
    }
  }
  if (step.spawnChild) {
    const child = spawn('sleep', ['1000'], { stdio: 'ignore' });
    text(sessionId, `CHILD ${child.pid}\n`, `c${nextId++}`);
  }
  if (step.waitForCancel) {
    await cancelled$;
    for (const late of step.then ?? []) update(sessionId, late);
    // `answerError`: the cancelled prompt is answered with this error (as Qwen Code does).
    if (step.answerError) throw Object.assign(new Error(step.answerError.message), step.answerError);
    return { stop: 'cancelled' };
  }
  // `closeStdout` / `closeStdin`: drops that pipe and keeps running.
  if (step.closeStdout) process.stdout.end(() => closeSync(1));
  if (step.closeStdin) {
    process.stdin.destroy();
    try {
      closeSync(0);
    } catch {
      // Already closed by destroy().
    }
  }
  if (step.hang) await new Promise(() => {});
  if (step.exit !== undefined) process.exit(step.exit);
  if (step.kill) process.kill(process.pid, step.kill);
  if (step.stop) return { stop: step.stop };
  return undefined;
}

// `pidFile`: starts a grandchild (`sleep`) at once and writes `{ agent, grandchild }` pids there.
if (opts.pidFile) {
  const grandchild = spawn('sleep', ['1000'], { stdio: 'ignore' });
  writeFileSync(opts.pidFile, JSON.stringify({ agent: process.pid, grandchild: grandchild.pid }));
}
// `stubborn`: ignores SIGTERM, SIGINT and SIGHUP and the end of its stdin (only SIGKILL stops it).
if (opts.stubborn) {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => {});
  setInterval(() => {}, 60_000);
}
// `startupStderr`: written to stderr as soon as the agent runs, before it reads anything.
if (opts.startupStderr) process.stderr.write(opts.startupStderr);
if (opts.noise) process.stdout.write('Starting fake agent v1.0...\n\x1b[32mready\x1b[0m\n');
if (opts.exitImmediately !== undefined) {
  process.stderr.write('fatal: cannot start\n');
  process.exit(opts.exitImmediately);
}
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  // `recordInbound`: every line the client wrote, appended to that file (what a login would read).
  if (opts.recordInbound) appendFileSync(opts.recordInbound, line + '\n');
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.method === undefined && msg.id !== undefined) {
    const resolve = pending.get(msg.id);
    pending.delete(msg.id);
    resolve?.(msg.error ? { error: msg.error } : { result: msg.result });
    return;
  }
  void handle(msg);
});
rl.on('close', () => {
  if (!opts.stubborn) process.exit(0);
});
