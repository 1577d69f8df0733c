/**
 * The entry point behind `acp agent`: flags, environment and config file → an agent serving ACP on
 * stdin/stdout until stdin closes.
 */
import { format } from 'node:util';
import type { Logger } from '@acp-kit/protocol';
import { stdioChannel } from '@acp-kit/protocol/node';
import { serveAgent } from './agent.js';
import type { AgentCliOptions } from './cli-options.js';
import { logLevelName, resolveDataDir, usesLegacyDataLayout } from './config/paths.js';
import { DemoEngine } from './demo/demo-engine.js';
import { lazyMcpServers } from './mcp/lazy.js';
import type { AgentSetupOptions } from './config/setup-command.js';
import type { TurnEngine } from './session/turn.js';
import { createStderrLogger, parseLogLevel } from './util/logger.js';

export {
  agentCliDescription,
  agentCliOptions,
  agentSetupDescription,
  agentSetupHelp,
  agentSetupOptions,
} from './cli-options.js';
export type { AgentCliOptions, AgentCliOptionSpec } from './cli-options.js';

/**
 * `acp agent setup`; resolves with the exit code. Loaded on demand, like the model engine.
 *
 * @example
 * process.exitCode = await runAgentSetup({ provider: 'openai', model: 'gpt-5' });
 */
export async function runAgentSetup(options: AgentSetupOptions): Promise<number> {
  const { runAgentSetup: run } = await import('./config/setup-command.js');
  return run(options);
}

function numberFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}

async function createEngine(options: AgentCliOptions, logger: Logger): Promise<TurnEngine> {
  if (options.demo) {
    return new DemoEngine({ delayMs: options.demoDelay ?? numberFromEnv(process.env.ACP_KIT_DEMO_DELAY_MS) });
  }
  // Loaded on demand: the demo agent starts faster without the model providers.
  const { ModelEngine } = await import('./model/model-engine.js');
  return new ModelEngine({
    env: process.env,
    logger,
    overrides: {
      provider: options.provider,
      model: options.model,
      baseUrl: options.baseUrl,
      apiKeyEnv: options.apiKeyEnv,
      config: options.config,
      maxSteps: options.maxSteps,
      contextWindow: options.contextWindow,
    },
  });
}

/**
 * stdout carries protocol frames only: anything a dependency prints with console.log/info/debug
 * goes to stderr instead of corrupting the stream.
 */
function keepConsoleOffStdout(): void {
  const toStderr = (...args: unknown[]): void => {
    process.stderr.write(`${format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/**
 * Serves ACP on stdio until stdin closes. Logs go to stderr only.
 *
 * @example
 * await runAgent({ demo: true });
 */
export async function runAgent(options: AgentCliOptions = {}): Promise<void> {
  const logger = createStderrLogger(parseLogLevel(options.logLevel ?? logLevelName(process.env)));
  keepConsoleOffStdout();
  const engine = await createEngine(options, logger);
  const dataDir = resolveDataDir(process.env, options.dataDir);
  if (!options.dataDir && !process.env.ACP_KIT_AGENT_DATA_DIR && usesLegacyDataLayout(process.env))
    logger.log(
      'warn',
      `sessions are read from ${dataDir} in the old layout; move its sessions/ to ${dataDir}/agent/sessions/`,
    );
  logger.log('info', 'serving ACP on stdio', { agent: engine.kind, dataDir });
  const agent = serveAgent(stdioChannel(), {
    engine,
    dataDir,
    logger,
    mcp: lazyMcpServers(logger),
  });
  // A terminating agent still stops its sessions: commands and MCP servers run in their own
  // process groups and would otherwise outlive it.
  const stop = (): void => void agent.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await agent.closed;
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}
