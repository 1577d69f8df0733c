/**
 * Records what real ACP adapters answer to acp-kit's negotiating `initialize` (connectAgent: version
 * 2 with the v2 `capabilities`/`info` and, beside them, the v1 `clientCapabilities`/`clientInfo`),
 * what they answer to the same client asking for v1 only, and (the control) to a request with the v2
 * fields only, which a v1 agent reads as a client without capabilities. `initialize` works offline, so no
 * model or credentials are involved. The recordings are the fixture of
 * `packages/protocol/test/interop/adapters-v2.test.ts`, which replays them without the adapters.
 *
 *   node --conditions=@acp-kit/source --import tsx scripts/record-v2-initialize.ts
 *
 * The adapters are looked up in `ACP_ADAPTERS_DIR` (default `/tmp/v2proto-adapters`:
 * `npm i --prefix /tmp/v2proto-adapters @agentclientprotocol/claude-agent-acp @zed-industries/codex-acp @google/gemini-cli`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientCapabilities } from '@acp-kit/protocol';
import { spawnPeer } from '@acp-kit/protocol/node';
import { connectAgent, type ConnectAgentOptions } from '@acp-kit/protocol/v2';

const DIR = process.env.ACP_ADAPTERS_DIR ?? '/tmp/v2proto-adapters';
const OUT = new URL('../packages/protocol/test/fixtures/adapters-v2-initialize.json', import.meta.url);

/** What acp-kit's client advertises in v1 (fs, terminals, notices): what a v1 agent must keep seeing. */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  auth: { terminal: true },
  session: { notices: {}, configOptions: { boolean: {} } },
  _meta: { terminal_output: true },
};

const ADAPTERS = [
  {
    name: 'claude-agent-acp',
    pkg: '@agentclientprotocol/claude-agent-acp',
    bin: 'claude-agent-acp',
    args: [],
  },
  { name: 'codex-acp', pkg: '@zed-industries/codex-acp', bin: 'codex-acp', args: [] },
  { name: 'gemini-cli', pkg: '@google/gemini-cli', bin: 'gemini', args: ['--experimental-acp'] },
];

interface Exchange {
  request: unknown;
  response: unknown;
}

/** One connectAgent handshake, recording the initialize frames both ways. */
async function handshake(
  bin: string,
  args: string[],
  home: string,
  protocolVersion?: 1 | 2,
): Promise<Exchange> {
  const frames: { dir: string; message: unknown }[] = [];
  // A fresh HOME: no credentials, no user settings.
  const env = { PATH: process.env.PATH ?? '', HOME: home };
  const peer = spawnPeer(bin, args, { env, cwd: home });
  const options: ConnectAgentOptions = {
    info: { name: 'acp-kit', version: '0.1.0' },
    capabilities: { auth: { terminal: {} } },
    clientCapabilities: CLIENT_CAPABILITIES,
    trace: (dir, text, message) => frames.push({ dir, message: message ?? safeParse(text) }),
    request: { timeoutMs: 60_000 },
    ...(protocolVersion ? { protocolVersion } : {}),
  };
  const handlers = {
    sessionUpdate: () => undefined,
    requestPermission: () => ({ outcome: { outcome: 'cancelled' as const } }),
  };
  try {
    const negotiated = await connectAgent(peer.channel, { v1: handlers, v2: handlers }, options);
    await negotiated.connection.close();
  } catch (error) {
    // Forced to 2, a v1 agent's answer is refused: expected, the frames are what we record.
    if (protocolVersion !== 2) throw error;
  } finally {
    await peer.shutdown({ graceMs: 2000 });
  }
  const find = (dir: string, has: (m: Record<string, unknown>) => boolean) =>
    frames.find((f) => f.dir === dir && has(f.message as Record<string, unknown>))?.message;
  const request = find('out', (m) => m.method === 'initialize') as { id: unknown };
  return { request, response: find('in', (m) => m.id === request.id) };
}

const recordings: Record<string, unknown> = {};
for (const a of ADAPTERS) {
  const version = (
    JSON.parse(readFileSync(join(DIR, 'node_modules', a.pkg, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const home = mkdtempSync(join(tmpdir(), `acp-v2-${a.name}-`));
  const bin = join(DIR, 'node_modules', '.bin', a.bin);
  const negotiated = await handshake(bin, a.args, home);
  const v1Only = await handshake(bin, a.args, home, 1);
  // The control: v2 fields only, what a v2 client that does not send the v1 ones gets.
  const v2Only = await handshake(bin, a.args, home, 2);
  recordings[a.name] = { package: `${a.pkg}@${version}`, args: a.args, negotiated, v1Only, v2Only };
  process.stderr.write(`${a.name}: recorded\n`);
}
writeFileSync(OUT, `${JSON.stringify(recordings, null, 2)}\n`);

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
