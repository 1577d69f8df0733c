/**
 * Local HTTP stubs of model APIs on 127.0.0.1 that serve scripted turns: an OpenAI-compatible
 * streaming Chat Completions endpoint and an Anthropic Messages endpoint. They record every request
 * body so tests can check what the agent sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** One model response. */
export type ScriptedResponse =
  | {
      reasoning?: string[];
      text?: string[];
      toolCalls?: ScriptedToolCall[];
      /** Defaults to tool calls when there are some, else stop. */
      finish?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
      usage?: { input: number; output: number };
      /** Stop after the first text chunk and keep the response open until the client goes away. */
      hang?: boolean;
    }
  | { status: number; body: unknown; headers?: Record<string, string> };

export interface ModelStub {
  baseUrl: string;
  /** Parsed JSON bodies of the requests received, in order. */
  requests: Record<string, unknown>[];
  /** Resolves when a hanging response's client disconnected. */
  disconnected: Promise<void>;
  enqueue(...responses: ScriptedResponse[]): void;
  close(): Promise<void>;
}

type Writer = (
  res: ServerResponse,
  response: Extract<ScriptedResponse, { text?: string[] }>,
) => Promise<void>;

function sse(res: ServerResponse, data: unknown, event?: string): void {
  res.write(
    `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
  );
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

async function startStub(path: string, write: Writer): Promise<ModelStub> {
  const queue: ScriptedResponse[] = [];
  const requests: Record<string, unknown>[] = [];
  let onDisconnect: () => void = () => {};
  const disconnected = new Promise<void>((resolve) => (onDisconnect = resolve));
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== path) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":{"message":"no such route"}}');
        return;
      }
      requests.push(await readBody(req));
      const next = queue.shift();
      if (!next) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":{"message":"stub: no scripted response"}}');
        return;
      }
      if ('status' in next) {
        res
          .writeHead(next.status, { 'content-type': 'application/json', ...next.headers })
          .end(JSON.stringify(next.body));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (next.hang) res.on('close', () => onDisconnect());
      await write(res, next);
      if (!next.hang) res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    disconnected,
    enqueue: (...responses) => queue.push(...responses),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `POST /v1/chat/completions` with `stream: true`, as OpenAI, Ollama, vLLM and others serve it. */
export function startOpenAIStub(): Promise<ModelStub> {
  return startStub('/v1/chat/completions', async (res, r) => {
    const chunk = (delta: unknown, finish: string | null = null): void =>
      sse(res, {
        id: 'chatcmpl-stub',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'stub-model',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    chunk({ role: 'assistant', content: '' });
    for (const text of r.reasoning ?? []) chunk({ reasoning_content: text });
    for (const text of r.text ?? []) {
      chunk({ content: text });
      if (r.hang) return;
    }
    for (const [index, call] of (r.toolCalls ?? []).entries()) {
      const args = JSON.stringify(call.input);
      const half = Math.floor(args.length / 2);
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: args.slice(0, half) },
          },
        ],
      });
      chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
    }
    chunk({}, r.finish ?? (r.toolCalls?.length ? 'tool_calls' : 'stop'));
    if (r.usage) {
      sse(res, {
        id: 'chatcmpl-stub',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'stub-model',
        choices: [],
        usage: {
          prompt_tokens: r.usage.input,
          completion_tokens: r.usage.output,
          total_tokens: r.usage.input + r.usage.output,
        },
      });
    }
    sse(res, '[DONE]');
  });
}

const ANTHROPIC_STOP: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

/** `POST /v1/messages` with `stream: true`, as the Anthropic Messages API serves it. */
export function startAnthropicStub(): Promise<ModelStub> {
  return startStub('/v1/messages', async (res, r) => {
    const usage = r.usage ?? { input: 0, output: 0 };
    sse(
      res,
      {
        type: 'message_start',
        message: {
          id: 'msg_stub',
          type: 'message',
          role: 'assistant',
          model: 'claude-stub',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input, output_tokens: 1 },
        },
      },
      'message_start',
    );
    let index = 0;
    const block = (start: unknown, deltas: unknown[]): void => {
      sse(res, { type: 'content_block_start', index, content_block: start }, 'content_block_start');
      for (const delta of deltas)
        sse(res, { type: 'content_block_delta', index, delta }, 'content_block_delta');
      sse(res, { type: 'content_block_stop', index }, 'content_block_stop');
      index++;
    };
    if (r.reasoning?.length) {
      block({ type: 'thinking', thinking: '', signature: '' }, [
        ...r.reasoning.map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'signature_delta', signature: 'stub-signature' },
      ]);
    }
    if (r.text?.length) {
      if (r.hang) {
        sse(
          res,
          { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
          'content_block_start',
        );
        sse(
          res,
          { type: 'content_block_delta', index, delta: { type: 'text_delta', text: r.text[0] } },
          'content_block_delta',
        );
        return;
      }
      block(
        { type: 'text', text: '' },
        r.text.map((text) => ({ type: 'text_delta', text })),
      );
    }
    for (const call of r.toolCalls ?? []) {
      block({ type: 'tool_use', id: call.id, name: call.name, input: {} }, [
        { type: 'input_json_delta', partial_json: JSON.stringify(call.input) },
      ]);
    }
    const finish = r.finish ?? (r.toolCalls?.length ? 'tool_calls' : 'stop');
    sse(
      res,
      {
        type: 'message_delta',
        delta: { stop_reason: ANTHROPIC_STOP[finish], stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
      'message_delta',
    );
    sse(res, { type: 'message_stop' }, 'message_stop');
  });
}
