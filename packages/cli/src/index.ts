/**
 * `@acp-kit/cli`: the `acp` command, usable as a library (for tests and wrappers).
 */
export { main, buildProgram } from './main.js';
export { EXIT_CODES, UsageError, exitCodeForError, exitCodeForStopReason } from './exit-codes.js';
export { processIo, selfLaunchSpec, type CliIo, type Output } from './io.js';
export { renderTranscript } from './commands/sessions.js';
export { JsonRenderer, TextRenderer, type RunRenderer } from './commands/run-render.js';
