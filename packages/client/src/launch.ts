/**
 * `@acp-kit/client/launch`: the part of the engine a front end needs before it loads the rest —
 * where the configuration lives, the agent catalog, starting an agent's process early (for a
 * connection to take later), and the sanitizer for the names agents give themselves. Small on
 * purpose: the terminal UI draws its first frame and starts the agent with it while the engine
 * and the UI load.
 */
export { AgentCatalog, type CatalogOptions, type DetectedAgent } from './catalog/catalog.js';
export type { AgentEntry, LaunchSpec } from './catalog/types.js';
export { resolveClientPaths, type ClientPaths } from './paths.js';
export { sharedPassEnv } from './process/agent-env.js';
export { startEarlyAgent, type AgentLaunch, type EarlyAgent } from './process/early-agent.js';
export { TextSanitizer, sanitizeInline, sanitizeText } from './text/sanitize-text.js';
