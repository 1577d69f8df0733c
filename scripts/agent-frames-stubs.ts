/**
 * Model API stubs on 127.0.0.1 for recording what real ACP adapters send (see
 * `record-agent-frames.ts`): Anthropic Messages (Claude Code), the OpenAI Responses API (Codex),
 * OpenAI Chat Completions (Qwen Code) and the Gemini API (Gemini CLI), each serving a script of
 * model turns — text, one tool call, or text that never ends (to cancel a turn mid-answer) — to
 * the agent's main loop, and a short answer to its side requests (titles, routing).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step =
  { text: string } | { tool: string; id: string; input: Record<string, unknown>; custom?: string };

/**
 * A step of the Chat Completions stub: also an answer that never ends (the agent gives up on it),
 * after `hang` as its first text (none: not even its headers are sent).
 */
export type ChatStep = Step | { hang: string };

export interface Stub {
  url: string;
  log: string[];
  /** Resolves when the agent asked for an answer that never ends (a `hang` step). */
  hung: Promise<void>;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(raw || '{}');
  } catch {
    return { raw };
  }
}

function sse(res: ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}

async function serve(
  handler: (
    req: IncomingMessage,
    b: Record<string, unknown>,
    res: ServerResponse,
    log: string[],
    hang: () => void,
  ) => void,
): Promise<Stub> {
  const log: string[] = [];
  let hang = (): void => undefined;
  const hung = new Promise<void>((resolve) => (hang = resolve));
  const server = createServer(async (req, res) => {
    const b = await body(req);
    try {
      handler(req, b, res, log, hang);
    } catch (e) {
      log.push(`error ${String(e)}`);
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    hung,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        // An answer held open (a cancelled turn's) would keep the server from closing.
        server.closeAllConnections();
      }),
  };
}

/** Anthropic: the main loop (requests offering the Bash tool) follows `script`; others get "ok". */
export function anthropicStub(script: Step[]): Promise<Stub> {
  let next = 0;
  return serve((req, b, res, log) => {
    const tools = (b.tools as { name: string }[] | undefined)?.map((t) => t.name) ?? [];
    const main = tools.includes('Bash');
    log.push(`${req.method} ${req.url} main=${main} tools=${tools.length} stream=${String(b.stream)}`);
    if (!req.url?.startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    if (req.url.includes('count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}');
      return;
    }
    const step: Step = main ? (script[next++] ?? { text: 'Done.' }) : { text: 'ok' };
    log.push(`  -> ${JSON.stringify(step).slice(0, 120)}`);
    const message = {
      id: `msg_${log.length}`,
      type: 'message',
      role: 'assistant',
      model: String(b.model ?? 'claude'),
      content: [] as unknown[],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    };
    if (!b.stream) {
      const content =
        'text' in step
          ? [{ type: 'text', text: step.text }]
          : [{ type: 'tool_use', id: step.id, name: step.tool, input: step.input }];
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          ...message,
          content,
          stop_reason: 'text' in step ? 'end_turn' : 'tool_use',
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    sse(res, { type: 'message_start', message }, 'message_start');
    if ('text' in step) {
      sse(
        res,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        'content_block_start',
      );
      sse(
        res,
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: step.text } },
        'content_block_delta',
      );
    } else {
      sse(
        res,
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: step.id, name: step.tool, input: {} },
        },
        'content_block_start',
      );
      sse(
        res,
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input) },
        },
        'content_block_delta',
      );
    }
    sse(res, { type: 'content_block_stop', index: 0 }, 'content_block_stop');
    sse(
      res,
      {
        type: 'message_delta',
        delta: { stop_reason: 'text' in step ? 'end_turn' : 'tool_use', stop_sequence: null },
        usage: { output_tokens: 5 },
      },
      'message_delta',
    );
    sse(res, { type: 'message_stop' }, 'message_stop');
    res.end();
  });
}

/** OpenAI Responses API (`POST /v1/responses`, streaming) for Codex. */
export function responsesStub(script: Step[]): Promise<Stub> {
  let next = 0;
  return serve((req, b, res, log) => {
    const tools =
      (b.tools as { name?: string; type?: string }[] | undefined)?.map((t) => t.name ?? t.type) ?? [];
    log.push(`${req.method} ${req.url} tools=${tools.join(',')}`);
    if (!req.url?.includes('/responses')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"models":[]}');
      return;
    }
    const step: Step = script[next++] ?? { text: 'Done.' };
    log.push(`  -> ${JSON.stringify(step).slice(0, 160)}`);
    const id = `resp_${next}`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const response = {
      id,
      object: 'response',
      created_at: 1,
      status: 'in_progress',
      model: String(b.model ?? 'gpt'),
      output: [],
    };
    sse(res, { type: 'response.created', response }, 'response.created');
    let item: Record<string, unknown>;
    if ('text' in step) {
      item = {
        type: 'message',
        id: `msg_${next}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: step.text, annotations: [] }],
      };
      sse(
        res,
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { ...item, content: [], status: 'in_progress' },
        },
        'response.output_item.added',
      );
      sse(
        res,
        {
          type: 'response.output_text.delta',
          item_id: item.id,
          output_index: 0,
          content_index: 0,
          delta: step.text,
        },
        'response.output_text.delta',
      );
    } else if (step.custom !== undefined) {
      item = {
        type: 'custom_tool_call',
        id: `ctc_${next}`,
        call_id: step.id,
        name: step.tool,
        input: step.custom,
        status: 'completed',
      };
      sse(
        res,
        { type: 'response.output_item.added', output_index: 0, item: { ...item, input: '' } },
        'response.output_item.added',
      );
    } else {
      item = {
        type: 'function_call',
        id: `fc_${next}`,
        call_id: step.id,
        name: step.tool,
        arguments: JSON.stringify(step.input),
        status: 'completed',
      };
      sse(
        res,
        { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '' } },
        'response.output_item.added',
      );
    }
    sse(res, { type: 'response.output_item.done', output_index: 0, item }, 'response.output_item.done');
    sse(
      res,
      {
        type: 'response.completed',
        response: {
          ...response,
          status: 'completed',
          output: [item],
          usage: {
            input_tokens: 10,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 5,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 15,
          },
        },
      },
      'response.completed',
    );
    res.end();
  });
}

/** Gemini API (`:streamGenerateContent?alt=sse`, `:generateContent`, `:countTokens`). */
export function geminiStub(script: Step[]): Promise<Stub> {
  let next = 0;
  return serve((req, b, res, log) => {
    const decls = ((b.tools as { functionDeclarations?: { name: string }[] }[] | undefined) ?? [])
      .flatMap((t) => t.functionDeclarations ?? [])
      .map((d) => d.name);
    const main = decls.includes('run_shell_command') || decls.includes('write_todos');
    log.push(`${req.method} ${req.url} main=${main} tools=${decls.join(',')}`);
    if (req.url?.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"totalTokens":10}');
      return;
    }
    const step: Step = main
      ? (script[next++] ?? { text: 'Done.' })
      : { text: '{"next_speaker":"user","reasoning":"done"}' };
    log.push(`  -> ${JSON.stringify(step).slice(0, 160)}`);
    const part =
      'text' in step
        ? { text: step.text }
        : { functionCall: { name: step.tool, args: step.input, id: step.id } };
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'gemini-stub',
    };
    if (req.url?.includes('alt=sse') || req.url?.includes('streamGenerateContent')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chunk));
    }
  });
}

/**
 * OpenAI Chat Completions (`POST /chat/completions`, streaming) for Qwen Code and GitHub Copilot
 * CLI: the main loop (requests offering the tool `mainTool`) follows `script`; side requests get
 * "ok" (JSON for requests that ask for it).
 */
export function chatStub(script: ChatStep[], mainTool: string): Promise<Stub> {
  let next = 0;
  return serve((req, b, res, log, hang) => {
    const tools =
      (b.tools as { function?: { name?: string } }[] | undefined)?.map((t) => t.function?.name ?? '') ?? [];
    const main = tools.includes(mainTool);
    log.push(`${req.method} ${req.url} main=${main} tools=${tools.length}`);
    if (!req.url?.includes('/chat/completions')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
      return;
    }
    const json = (b.response_format as { type?: string } | undefined)?.type === 'json_object';
    const step: ChatStep = main ? (script[next++] ?? { text: 'Done.' }) : { text: json ? '{}' : 'ok' };
    log.push(`  -> ${JSON.stringify(step).slice(0, 160)}`);
    const base = {
      id: `chat_${log.length}`,
      object: 'chat.completion.chunk',
      created: 1,
      model: String(b.model),
    };
    const send = (delta: Record<string, unknown>, finish: string | null, usage?: unknown): void => {
      const chunk = {
        ...base,
        choices: [{ index: 0, delta, finish_reason: finish }],
        ...(usage ? { usage } : {}),
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    };
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    if (!b.stream) {
      const message =
        'tool' in step
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: step.id,
                  type: 'function',
                  function: { name: step.tool, arguments: JSON.stringify(step.input) },
                },
              ],
            }
          : { role: 'assistant', content: 'text' in step ? step.text : step.hang };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: 'tool' in step ? 'tool_calls' : 'stop' }],
          usage,
        }),
      );
      return;
    }
    if ('hang' in step) {
      // The answer never ends: the agent aborts the request when its turn is cancelled.
      if (step.hang !== '') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        send({ role: 'assistant', content: step.hang }, null);
      }
      hang();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if ('text' in step) send({ role: 'assistant', content: step.text }, null);
    else
      send(
        {
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: step.id,
              type: 'function',
              function: { name: step.tool, arguments: JSON.stringify(step.input) },
            },
          ],
        },
        null,
      );
    send({}, 'text' in step ? 'stop' : 'tool_calls', usage);
    res.write('data: [DONE]\n\n');
    res.end();
  });
}
