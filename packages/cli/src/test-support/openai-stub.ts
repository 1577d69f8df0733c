/**
 * A scripted OpenAI-compatible Chat Completions endpoint (streaming) on 127.0.0.1, standing in for
 * a model so that `acp agent` (the acp-kit model agent) can run real turns in tests.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted model answer: text, or one tool call. */
export type StubAnswer = { text: string } | { tool: string; args: Record<string, unknown> };

export interface OpenAIStub {
  baseUrl: string;
  /** Request bodies received. */
  requests: { messages?: unknown[] }[];
  close(): Promise<void>;
}

/** Serves `answers` in order, one per request. */
export async function startOpenAIStub(answers: StubAnswer[]): Promise<OpenAIStub> {
  const requests: { messages?: unknown[] }[] = [];
  const queue = [...answers];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { messages?: unknown[] });
      const answer = queue.shift();
      if (req.url !== '/v1/chat/completions' || !answer) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":{"message":"stub: nothing scripted"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const base = {
        id: `c${requests.length}`,
        object: 'chat.completion.chunk',
        created: 1,
        model: 'stub-model',
      };
      const send = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}): void => {
        res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }], ...extra })}\n\n`);
      };
      if ('text' in answer) {
        for (const word of answer.text.split(/(?<= )/))
          send({ delta: { role: 'assistant', content: word }, finish_reason: null });
        send(
          { delta: {}, finish_reason: 'stop' },
          { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
        );
      } else {
        const call = {
          index: 0,
          id: `call_${requests.length}`,
          type: 'function',
          function: { name: answer.tool, arguments: JSON.stringify(answer.args) },
        };
        send({ delta: { role: 'assistant', tool_calls: [call] }, finish_reason: null });
        send(
          { delta: {}, finish_reason: 'tool_calls' },
          { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
        );
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
