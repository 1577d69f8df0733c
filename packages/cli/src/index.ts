/**
 * `@acp-kit/cli`: the `acp` command, usable as a library (for tests and wrappers).
 */
export { main, buildProgram, isDumbTerminal, type TerminalUi } from './main.js';
export { VERSION } from './version.js';
export { EXIT_CODES, UsageError, exitCodeForStopReason } from './exit-codes.js';
export {
  errorReport,
  exitCodeForError,
  formatErrorReport,
  reportError,
  type ErrorContext,
  type ErrorReport,
} from './errors.js';
export { DEPRECATED_ENV, deprecatedEnvWarnings, type DeprecatedName } from './deprecated-env.js';
export { processIo, selfLaunchSpec, type CliIo, type Output } from './io.js';
export { renderTranscript } from './commands/sessions.js';
export { JsonRenderer, TextRenderer, type RunRenderer } from './commands/run-render.js';
export { completionScript, completionTree, type CompletionShell } from './commands/completion.js';
