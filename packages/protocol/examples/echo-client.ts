/**
 * A small ACP client: starts an agent as a child process, runs one prompt turn and prints what
 * streams back. Permission requests are answered from the command line flag `--allow`.
 *
 *   npx tsx packages/protocol/examples/echo-client.ts [--allow] [PROMPT] [-- AGENT COMMAND…]
 *
 * Without an agent command it runs the echo agent beside it.
 */
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClientSideConnection, PROTOCOL_VERSION, isUnknownVariant } from '@acp-kit/protocol';
import { spawnPeer } from '@acp-kit/protocol/node';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const own = dash === -1 ? argv : argv.slice(0, dash);
const allow = own.includes('--allow');
const promptText = own.filter((a) => a !== '--allow').join(' ') || 'Hello from the example client';
const here = dirname(fileURLToPath(import.meta.url));
// The echo agent runs the way this script runs (same Node flags, e.g. the tsx loader).
const [command, ...args] =
  dash === -1 ? [process.execPath, ...process.execArgv, join(here, 'echo-agent.ts')] : argv.slice(dash + 1);
if (!command) throw new Error('missing agent command after --');

const cwd = mkdtempSync(join(tmpdir(), 'acp-echo-'));
const agent = spawnPeer(command, args, { cwd });
const out = (s: string) => process.stdout.write(s);

const conn = new ClientSideConnection(agent.channel, {
  sessionUpdate: ({ update }) => {
    if (isUnknownVariant(update)) {
      out(`\n[unknown update ${update.sessionUpdate}]\n`);
      return;
    }
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (!isUnknownVariant(update.content) && update.content.type === 'text') out(update.content.text);
        return;
      case 'agent_thought_chunk':
        if (!isUnknownVariant(update.content) && update.content.type === 'text') {
          out(`(thinking: ${update.content.text})\n`);
        }
        return;
      case 'plan':
        out(`plan: ${update.entries.map((e) => `[${e.status}] ${e.content}`).join(', ')}\n`);
        return;
      case 'tool_call':
        out(`\ntool: ${update.title}\n`);
        return;
      case 'tool_call_update':
        out(`tool ${update.toolCallId}: ${update.status ?? 'updated'}\n`);
        return;
      default:
        return;
    }
  },
  requestPermission: ({ options }) => {
    const pick = options.find((o) => o.kind === (allow ? 'allow_once' : 'reject_once')) ?? options[0];
    out(`permission: ${pick?.name ?? 'none'}\n`);
    return pick
      ? { outcome: { outcome: 'selected', optionId: pick.optionId } }
      : { outcome: { outcome: 'cancelled' } };
  },
  readTextFile: ({ path }) => ({ content: readFileSync(path, 'utf8') }),
  writeTextFile: async ({ path, content }) => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, content);
    return {};
  },
}).start();

try {
  const init = await conn.initialize({
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
    clientInfo: { name: 'acp-kit-echo-client', version: '0.1.0' },
  });
  out(`connected to ${init.agentInfo?.name ?? 'agent'}\n`);
  const { sessionId } = await conn.newSession({ cwd, mcpServers: [] });
  const { stopReason } = await conn.promptSession({
    sessionId,
    prompt: [{ type: 'text', text: promptText }],
  });
  out(`\nstop reason: ${stopReason}\n`);
  const written = join(cwd, 'echo.txt');
  if (existsSync(written)) out(`agent wrote ${written}: ${readFileSync(written, 'utf8')}\n`);
} finally {
  await agent.shutdown({ graceMs: 1000 });
}
