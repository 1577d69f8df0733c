/** A live Session wired to a recording test client, for testing tools through the real runner. */
import {
  AgentSideConnection,
  PROTOCOL_VERSION,
  ProtocolError,
  createChannelPair,
  type ClientCapabilities,
} from '@acp-kit/protocol';
import { V1Port } from '../faces/v1/port.js';
import { Session } from '../session/session.js';
import { LOG_FORMAT, SessionStore } from '../session/store.js';
import { builtinTools } from '../tools/builtin.js';
import { ToolRunner } from '../tools/runner.js';
import type { AgentTool } from '../tools/types.js';
import { Workspace } from '../tools/workspace.js';
import { silentLogger } from '../util/logger.js';
import { TestClient, type PermissionPolicy } from './test-client.js';

export interface ToolHarness {
  client: TestClient;
  session: Session;
  runner: ToolRunner;
  sessionId: string;
  close(): Promise<void>;
}

export async function toolHarness(options: {
  cwd: string;
  dataDir: string;
  additionalDirectories?: string[];
  capabilities?: ClientCapabilities;
  permission?: PermissionPolicy;
  tools?: AgentTool[];
}): Promise<ToolHarness> {
  const [clientSide, agentSide] = createChannelPair();
  const refuse = (): never => {
    throw ProtocolError.methodNotFound('not in this harness');
  };
  let port: V1Port | undefined;
  const connection = new AgentSideConnection(agentSide, (conn) => {
    port = new V1Port(conn, silentLogger);
    return {
      initialize: () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }),
      newSession: refuse,
      promptSession: refuse,
      cancelSession: () => {},
    };
  }).start();
  const client = new TestClient(clientSide, {
    capabilities: options.capabilities,
    permission: options.permission,
  });
  await client.initialize();
  const store = new SessionStore(options.dataDir, 'demo', silentLogger);
  const now = new Date().toISOString();
  const meta = {
    version: LOG_FORMAT,
    sessionId: `tools-${Math.random().toString(36).slice(2)}`,
    agent: 'demo' as const,
    cwd: options.cwd,
    additionalDirectories: options.additionalDirectories ?? [],
    title: null,
    createdAt: now,
    updatedAt: now,
    modeId: 'ask',
    config: {},
    permissions: {},
  };
  const session = new Session({
    meta,
    store,
    log: store.create(meta),
    client: port!,
    workspace: await Workspace.create(options.cwd, options.additionalDirectories),
    options: { configOptions: () => [], setConfigOption: () => false },
    logger: silentLogger,
  });
  const runner = new ToolRunner(session, options.tools ?? builtinTools());
  return {
    client,
    session,
    runner,
    sessionId: session.id,
    async close() {
      await session.close();
      await client.close();
      await connection.close();
    },
  };
}
