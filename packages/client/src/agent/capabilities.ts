/**
 * What the client advertises in `initialize`: exactly what the engine serves.
 */
import type { ClientCapabilities, Implementation } from '@acp-kit/protocol';
import { CLIENT_VERSION } from '../version.js';

/** Options that change what is advertised. */
export interface AdvertiseOptions {
  /** Whether the host can run terminal auth methods (hand the terminal to a command). Default true. */
  terminalAuth?: boolean;
  /**
   * Whether the host can show a form (`ClientHost.elicit`). Default true. A headless host cannot,
   * and advertising forms there made agents offer sign-in methods it could only decline.
   */
  forms?: boolean;
}

/**
 * The client capabilities: fs read/write, terminals, terminal auth, form elicitation, boolean
 * config options, notices, compaction, and the `_meta.terminal_output` display convention of the
 * Claude, Codex and pi adapters (plus `_meta["terminal-auth"]`, which those adapters read to offer
 * their terminal login).
 */
export function clientCapabilities(options: AdvertiseOptions = {}): ClientCapabilities {
  const terminalAuth = options.terminalAuth ?? true;
  return {
    fs: { readTextFile: true, writeTextFile: true },
    terminal: true,
    auth: { terminal: terminalAuth },
    ...(options.forms === false ? {} : { elicitation: { form: {} } }),
    session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
    _meta: { terminal_output: true, ...(terminalAuth ? { 'terminal-auth': true } : {}) },
  };
}

/** How the client introduces itself. */
export const CLIENT_INFO: Implementation = {
  name: 'acp-kit',
  title: 'acp-kit client',
  version: CLIENT_VERSION,
};
