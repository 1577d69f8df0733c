/**
 * `@acp-kit/agent`: a coding agent over ACP (OpenAI-compatible and Anthropic models, tools,
 * permissions, modes, durable sessions, MCP) and a model-free demo agent.
 *
 * @example
 * import { runAgent } from '@acp-kit/agent';
 * await runAgent({ demo: true }); // serves ACP on stdin/stdout until stdin closes
 *
 * Embedding the model agent: `ModelEngine`, `loadSettings` and `McpServers` come from
 * `@acp-kit/agent/model`.
 */
export {
  runAgent,
  runAgentSetup,
  agentCliOptions,
  agentCliDescription,
  agentSetupDescription,
  agentSetupHelp,
  agentSetupOptions,
} from './cli-entry.js';
export type { AgentCliOptions, AgentCliOptionSpec } from './cli-entry.js';
export type { AgentSetupOptions } from './config/setup-command.js';
export { serveAgent } from './agent.js';
export type { AgentOptions, McpConnector, McpSessionHandle, ServedAcpAgent } from './agent.js';
export { AgentCore } from './core/agent-core.js';
export type { OpenOptions, StartedPrompt } from './core/agent-core.js';
export type * from './core/events.js';
export type * from './core/client-port.js';
export { V1Face } from './faces/v1/handlers.js';
export { V2Face } from './faces/v2/handlers.js';
export { DemoEngine } from './demo/demo-engine.js';
export type { DemoEngineOptions } from './demo/demo-engine.js';
// The model engine, its settings and the MCP connector load the AI SDK and the MCP SDK: they live
// in `@acp-kit/agent/model` so that importing this entry (and starting the demo) stays fast.
export { lazyMcpServers } from './mcp/lazy.js';
export { resolveConfigPath, resolveDataDir } from './config/paths.js';
export { Turn, MessageWriter, promptText } from './session/turn.js';
export type { TurnEngine } from './session/turn.js';
export { Session } from './session/session.js';
export type { ConfigOptionSource } from './session/session.js';
export { SessionStore } from './session/store.js';
export type { AgentKind, SessionMeta, SessionRecord } from './session/store.js';
export { COMMANDS } from './session/commands.js';
export { DEFAULT_MODE, decide, modeConfigOption } from './modes/modes.js';
export { modeState } from './faces/v1/modes.js';
export type { ModeId, PermissionAction, PolicyDecision } from './modes/modes.js';
export { builtinTools, toolsForMode } from './tools/builtin.js';
export { ToolRunner } from './tools/runner.js';
export type { ToolRunResult } from './tools/runner.js';
export { ToolError, defineTool } from './tools/types.js';
export type { AgentTool, ExecutionContext, PreparedCall, ToolContext, ToolResult } from './tools/types.js';
export { Workspace } from './tools/workspace.js';
export type { ResolvedPath } from './tools/workspace.js';
export { createStderrLogger, parseLogLevel } from './util/logger.js';
export { AGENT_VERSION } from './version.js';
