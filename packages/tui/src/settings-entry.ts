/**
 * `@acp-kit/tui/settings`: the settings file (`tui.json`) without the UI, for commands that
 * honour the same configuration (`acp run` takes the MCP servers configured there).
 */
export { loadSettings, settingsPath } from './app/settings/settings-file.js';
export { usableMcpServers, type ConfiguredMcpServer, type TuiSettings } from './app/settings/settings.js';
