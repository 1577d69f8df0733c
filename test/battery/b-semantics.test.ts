/**
 * B5–B8. JSON-RPC semantics: schema-invalid params for every inbound method (generated from the
 * schema), duplicate in-flight ids, responses that match nothing, and handlers that throw or return
 * what cannot be serialised. B1–B4 are in b-envelope.test.ts.
 */
import { AgentSideConnection, ClientSideConnection, PROTOCOL_VERSION, type Logger } from '@acp-kit/protocol';
import { describe, expect, it } from 'vitest';
import { fileWatch, safeJson } from './support/canary.js';
import { eventually, ScriptedChannel } from './support/channel.js';
import { holds, zero } from './support/figures.js';
import { type Frame } from './support/line-peer.js';
import { within } from './support/procs.js';
import { READERS, clientReader, demoAgentReader, errorCode as code } from './support/readers.js';
import { v2AgentReader, v2ClientReader } from './support/readers-v2.js';
import { SchemaCases, schemaInvalidParams } from './support/schema-invalid.js';
import { seedOf, timeoutMs } from './support/size.js';

const watch = fileWatch('b-semantics');

// ---- B5: schema-invalid params, generated from the schema ----

describe('B5 schema-invalid params for every inbound method', () => {
  const v1 = new SchemaCases('v1');
  for (const side of ['client', 'agent'] as const) {
    const make = side === 'client' ? clientReader : READERS[1].make;
    it(
      `${side} reader: -32602 with the id (no reply to a notification), handler never invoked`,
      async () => {
        const reader = make();
        await schemaInvalidParams(
          v1,
          side,
          reader,
          seedOf(501 + (side === 'client' ? 0 : 1)),
          `${side} reader`,
        );
        await reader.close();
      },
      timeoutMs(120_000, 600_000),
    );
  }

  // The same over connections negotiated in v2, against the v2 schema.
  const v2 = new SchemaCases('v2');
  for (const side of ['client', 'agent'] as const) {
    it(
      `v2 ${side} reader (negotiated): -32602 with the id (no reply to a notification), handler never invoked`,
      async () => {
        const reader = side === 'client' ? await v2ClientReader() : v2AgentReader();
        await schemaInvalidParams(
          v2,
          side,
          reader,
          seedOf(503 + (side === 'client' ? 0 : 1)),
          `v2 ${side} reader`,
        );
        await reader.close();
      },
      timeoutMs(120_000, 600_000),
    );
  }
});

// ---- B6: duplicate in-flight ids ----

describe('B6 duplicate in-flight ids and $/cancel_request', () => {
  for (const copies of [2, 100]) {
    it(`client reader: ${copies} copies of an in-flight id: one answer per frame, cancel touches only that request`, async () => {
      const channel = new ScriptedChannel();
      const started: string[] = [];
      const releases = new Map<string, () => void>();
      const connection = new ClientSideConnection(channel, {
        sessionUpdate: () => undefined,
        requestPermission: (params, ctx) =>
          new Promise((resolve) => {
            started.push(params.toolCall.toolCallId);
            const answer = () => resolve({ outcome: { outcome: 'selected', optionId: 'yes' } });
            releases.set(params.toolCall.toolCallId, answer);
            ctx.signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } }));
          }),
      }).start();
      const ask = (id: string, call: string) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'session/request_permission',
          params: {
            sessionId: 's',
            toolCall: { toolCallId: call },
            options: [{ optionId: 'yes', name: 'Yes', kind: 'allow_once' }],
          },
        });
      channel.feedText(ask('other', 'other-call') + '\n');
      for (let i = 0; i < copies; i++) channel.feedText(ask('dup', `dup-call-${i}`) + '\n');
      channel.feedText(
        JSON.stringify({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'dup' } }) + '\n',
      );
      await eventually(
        () => channel.out.filter((f) => (f as Frame).id === 'dup').length >= copies,
        'every dup frame answered',
      );
      releases.get('other-call')?.();
      await eventually(
        () => channel.out.some((f) => (f as Frame).id === 'other'),
        'the other request answered',
      );
      const dupAnswers = channel.out.filter((f) => (f as Frame).id === 'dup') as Frame[];
      const other = channel.out.find((f) => (f as Frame).id === 'other') as Frame;
      const ok =
        dupAnswers.length === copies &&
        dupAnswers.filter((f) => code(f) === -32600).length === copies - 1 &&
        (other.result as { outcome: { outcome: string } }).outcome.outcome === 'selected';
      holds(
        {
          case: 'B6',
          name: `client reader: ${copies} copies answered once each, the other request untouched`,
        },
        ok,
      );
      expect(dupAnswers).toHaveLength(copies);
      expect(dupAnswers.filter((f) => code(f) === -32600)).toHaveLength(copies - 1);
      expect(other.result).toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
      expect(started.filter((c) => c.startsWith('dup-call'))).toHaveLength(1);
      await connection.close();
    });
  }

  it('demo agent: duplicate ids of a running prompt, then $/cancel_request: one answer per frame, the other session untouched', async () => {
    const reader = demoAgentReader(watch.logger('demo agent'));
    const send = (frame: unknown) => reader.channel.feedText(JSON.stringify(frame) + '\n');
    send({
      jsonrpc: '2.0',
      id: 'i',
      method: 'initialize',
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
    for (const s of ['a', 'b'])
      send({
        jsonrpc: '2.0',
        id: `new-${s}`,
        method: 'session/new',
        params: { cwd: reader.dataDir, mcpServers: [] },
      });
    await eventually(
      () => ['new-a', 'new-b'].every((id) => reader.channel.out.some((f) => (f as Frame).id === id)),
      'sessions created',
      15_000,
    );
    const sessionOf = (id: string) =>
      ((reader.channel.out.find((f) => (f as Frame).id === id) as Frame).result as { sessionId: string })
        .sessionId;
    const [a, b] = [sessionOf('new-a'), sessionOf('new-b')];
    const slow = (id: string, sessionId: string) =>
      send({
        jsonrpc: '2.0',
        id,
        method: 'session/prompt',
        params: { sessionId, prompt: [{ type: 'text', text: 'slow' }] },
      });
    slow('other', b);
    for (let i = 0; i < 100; i++) slow('dup', a);
    send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'dup' } });
    await eventually(
      () => reader.channel.out.filter((f) => (f as Frame).id === 'dup').length >= 100,
      'every dup answered',
      20_000,
    );
    const otherStillRunning = !reader.channel.out.some((f) => (f as Frame).id === 'other');
    send({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: b } });
    await eventually(
      () => reader.channel.out.some((f) => (f as Frame).id === 'other'),
      'the other prompt ends',
      20_000,
    );
    const other = reader.channel.out.find((f) => (f as Frame).id === 'other') as Frame;
    const dups = reader.channel.out.filter((f) => (f as Frame).id === 'dup') as Frame[];
    holds(
      { case: 'B6', name: 'demo agent: 100 copies answered once each, the other session untouched' },
      dups.length === 100 && otherStillRunning,
    );
    expect(dups).toHaveLength(100);
    expect(otherStillRunning).toBe(true);
    expect(other.result).toEqual({ stopReason: 'cancelled' });
    await reader.close();
  }, 60_000);
});

// ---- B7: stray responses ----

describe('B7 responses that match nothing', () => {
  /** A client connection with one initialize cancelled and one pending; `strays` arrive before the right answer. */
  async function strays(make: (ids: { cancelled: number; pending: number }, canary: string) => unknown[]) {
    const channel = new ScriptedChannel();
    const entries: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
    const logger: Logger = {
      log: (level, message, fields) => entries.push({ level, message, ...(fields ? { fields } : {}) }),
    };
    const connection = new ClientSideConnection(
      channel,
      { sessionUpdate: () => undefined, requestPermission: () => ({ outcome: { outcome: 'cancelled' } }) },
      { logger },
    ).start();
    const canary = watch.contentCanary();
    const aborter = new AbortController();
    const cancelled = connection
      .initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} }, { signal: aborter.signal })
      .catch((e: unknown) => e);
    aborter.abort();
    const pending = connection.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    await eventually(() => channel.out.length >= 2, 'requests sent');
    const [first, second] = channel.out
      .filter((f) => (f as Frame).method === 'initialize')
      .map((f) => (f as Frame).id) as number[];
    for (const stray of make({ cancelled: first as number, pending: second as number }, canary))
      channel.feedText(JSON.stringify(stray) + '\n');
    const right = { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: 'right', version: '1' } };
    channel.feedText(JSON.stringify({ jsonrpc: '2.0', id: second, result: right }) + '\n');
    const answer = await within(pending, 5_000, 'the pending initialize');
    // A duplicate of the answer, after it settled its request.
    channel.feedText(JSON.stringify({ jsonrpc: '2.0', id: second, result: payload(canary) }) + '\n');
    await new Promise<void>((resolve) => setImmediate(resolve));
    await cancelled;
    await connection.close();
    // Stray responses are never answered (a reply to a response would let two peers ping-pong).
    const replies = (channel.out as Frame[]).filter((f) => 'result' in f || 'error' in f).length;
    return { answer, entries, canary, replies };
  }
  const payload = (canary: string) => ({
    protocolVersion: 1,
    agentCapabilities: {},
    _meta: { secret: canary },
  });

  it('unknown id, a 1,000-char id, late after cancel, duplicate, result+error: dropped quietly, logged by id (≤ 64 chars) never by payload', async () => {
    const { answer, entries, canary, replies } = await strays(({ cancelled, pending }, c) => [
      { jsonrpc: '2.0', id: 999_999, result: payload(c) },
      { jsonrpc: '2.0', id: 'L'.repeat(1000), result: payload(c) },
      { jsonrpc: '2.0', id: cancelled, result: payload(c) },
      { jsonrpc: '2.0', id: 424_242, result: payload(c), error: { code: 1, message: c } },
      { jsonrpc: '2.0', id: pending + 1000, error: { code: -32603, message: c, data: payload(c) } },
    ]);
    const logged = safeJson(entries);
    const longestId = Math.max(
      0,
      ...entries.map((e) => String(e.fields?.id ?? e.fields?.requestId ?? '').length),
    );
    const ok =
      answer.agentInfo?.name === 'right' && !logged.includes(canary) && longestId <= 65 && replies === 0;
    holds(
      {
        case: 'B7',
        name: 'client: stray responses dropped quietly, right request unaffected, no payload and ids ≤ 64 chars in logs',
      },
      ok,
    );
    expect(answer.agentInfo?.name).toBe('right');
    expect(replies).toBe(0);
    expect(logged).not.toContain(canary);
    expect(longestId).toBeLessThanOrEqual(65);
  });

  it('a response with id "2" does not settle request 2', async () => {
    const { answer } = await strays(({ pending }, c) => [
      { jsonrpc: '2.0', id: String(pending), result: payload(c) },
    ]);
    holds(
      { case: 'B7', name: 'client: a response with id "2" leaves request 2 to its real answer' },
      answer.agentInfo?.name === 'right',
    );
    expect(answer.agentInfo?.name).toBe('right');
  });
});

// ---- B8: handlers that throw non-Errors or return what cannot be serialised ----

describe('B8 handlers that throw or return garbage', () => {
  it('client and agent connections: -32603 to the peer, the connection lives on', async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const throws = (value: unknown) => () => {
      throw value;
    };
    const client = new ScriptedChannel();
    new ClientSideConnection(client, {
      sessionUpdate: () => undefined,
      requestPermission: throws('a string'),
      readTextFile: throws(null),
      writeTextFile: throws(cycle),
      createTerminal: () => ({ terminalId: 1n }) as unknown as { terminalId: string },
      terminalOutput: () => cycle as unknown as { output: string; truncated: boolean },
    }).start();
    const agent = new ScriptedChannel();
    new AgentSideConnection(agent, () => ({
      // initialize succeeds (the agent side refuses everything before it, case B4).
      initialize: () => ({ protocolVersion: 1 }),
      authenticate: throws('a string'),
      newSession: throws(null),
      promptSession: throws(cycle),
      setSessionMode: () => ({ _meta: { n: 1n } }) as unknown as Record<string, never>,
      closeSession: () => cycle as unknown as Record<string, never>,
      cancelSession: () => undefined,
    })).start();
    const s = { sessionId: 's' };
    const clientCalls = [
      ['session/request_permission', { ...s, toolCall: { toolCallId: 't' }, options: [] }],
      ['fs/read_text_file', { ...s, path: '/x' }],
      ['fs/write_text_file', { ...s, path: '/x', content: '' }],
      ['terminal/create', { ...s, command: 'true' }],
      ['terminal/output', { ...s, terminalId: 't' }],
    ] as const;
    agent.unrecorded.add('initialize');
    agent.feedText(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'initialize',
        method: 'initialize',
        params: { protocolVersion: 1 },
      }) + '\n',
    );
    const agentCalls = [
      ['authenticate', { methodId: 'm' }],
      ['session/new', { cwd: '/', mcpServers: [] }],
      ['session/prompt', { ...s, prompt: [] }],
      ['session/set_mode', { ...s, modeId: 'm' }],
      ['session/close', s],
    ] as const;
    let failures = 0;
    for (const [channel, calls] of [
      [client, clientCalls],
      [agent, agentCalls],
    ] as const) {
      for (const [i, [method, params]] of calls.entries())
        channel.feedText(JSON.stringify({ jsonrpc: '2.0', id: i, method, params }) + '\n');
      channel.feedText(JSON.stringify({ jsonrpc: '2.0', id: 'live', method: '_battery/live' }) + '\n');
      await eventually(() => channel.out.length === calls.length + 1, 'every call answered');
      const codes = (channel.out as Frame[]).filter((f) => f.id !== 'live').map(code);
      failures += codes.filter((c) => c !== -32603).length;
      expect(codes).toEqual(calls.map(() => -32603));
      expect(code((channel.out as Frame[]).find((f) => f.id === 'live'))).toBe(-32601);
    }
    zero(
      {
        case: 'B8',
        name: 'handlers throwing non-Errors or returning BigInt/cycles: answers other than -32603',
      },
      failures,
    );
  });
});
