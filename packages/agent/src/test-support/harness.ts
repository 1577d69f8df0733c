/** Starting the agent for tests: in-process over a channel pair, or as a real child process. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ProtocolError, createChannelPair, type Logger } from '@acp-kit/protocol';
import { spawnPeer, type SpawnedPeer } from '@acp-kit/protocol/node';
import { serveAgent, type AgentOptions } from '../agent.js';
import { TestClient, type TestClientOptions } from './test-client.js';

/** A fresh directory under the system temp dir (real path, so macOS /var → /private/var is settled). */
export async function tempDir(prefix: string): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), `acp-kit-agent-${prefix}-`)));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** A logger that throws on errors, so that an agent bug it reports fails the test that caused it. */
export const strictLogger: Logger = {
  log(level, message, fields) {
    if (level === 'error')
      throw new Error(`agent logged an error: ${message} ${JSON.stringify(fields ?? {})}`);
  },
};

/** Agent and client in one process, over an in-memory channel pair. */
export function inProcessAgent(
  options: AgentOptions,
  client: TestClientOptions = {},
): { client: TestClient; agentClosed: Promise<void> } {
  const [clientSide, agentSide] = createChannelPair();
  // Everything the agent sends is checked against the schema, and errors it logs fail the test.
  const { closed } = serveAgent(agentSide, { logger: strictLogger, validateOutgoing: true, ...options });
  return { client: new TestClient(clientSide, client), agentClosed: closed };
}

const require = createRequire(import.meta.url);
const BIN = fileURLToPath(new URL('../bin.ts', import.meta.url));
const TSX = pathToFileURL(require.resolve('tsx')).href;

/** The command line that runs the agent from source: `node --conditions=… --import tsx bin.ts`. */
export function agentCommand(args: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--conditions=@acp-kit/source', '--import', TSX, BIN, ...args] };
}

/**
 * An environment without the caller's secrets or config: only what the agent needs, plus `extra`.
 * HOME points at `home` so that no real config file is read.
 */
export function cleanEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    ACP_KIT_DEMO_DELAY_MS: '0',
    ...extra,
  };
}

export interface SpawnedAgent {
  peer: SpawnedPeer;
  client: TestClient;
  stop(): Promise<void>;
}

/** Spawns the agent as a child process over real pipes and connects a test client to it. */
export function spawnAgent(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; client?: TestClientOptions },
): SpawnedAgent {
  const { command, args: argv } = agentCommand(args);
  const peer = spawnPeer(command, argv, { cwd: options.cwd, env: options.env });
  const client = new TestClient(peer.channel, options.client);
  return {
    peer,
    client,
    async stop() {
      client.terminals.dispose();
      await peer.shutdown({ graceMs: 2000 });
      await client.connection.close();
    },
  };
}

/** The ProtocolError `promise` rejects with (anything else fails the test). */
export async function errorOf(promise: Promise<unknown>): Promise<ProtocolError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error('expected a ProtocolError');
}
