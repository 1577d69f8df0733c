/**
 * `@acp-kit/agent/model`: the model agent's engine, configuration and MCP connector (these load
 * the AI SDK and the MCP SDK, so they are kept out of the main entry).
 *
 * @example
 * import { serveAgent } from '@acp-kit/agent';
 * import { ModelEngine, McpServers } from '@acp-kit/agent/model';
 * import { stdioChannel } from '@acp-kit/protocol/node';
 * serveAgent(stdioChannel(), { engine: new ModelEngine(), dataDir: '/tmp/sessions', mcp: new McpServers(logger) });
 */
export { ModelEngine } from './model-engine.js';
export type { ActiveModel } from './model-engine.js';
export { languageModel } from './providers.js';
export { McpServers } from '../mcp/mcp-connector.js';
export { loadSettings, setupInstructions } from '../config/settings.js';
export type {
  AgentSettings,
  ModelPrice,
  ModelSettings,
  ProviderSettings,
  ProviderType,
  SettingsOverrides,
} from '../config/settings.js';
