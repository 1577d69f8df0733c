/**
 * The agent's diagnostics: stderr only (stdout carries ACP frames), one line per event, and never
 * the values of secrets.
 */
import type { LogLevel, Logger } from '@acp-kit/protocol';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Field names whose values are never written, whatever they contain. */
const SECRET_FIELD = /key|token|secret|password|authorization|cookie|header/i;

/** Parses a level name (`ACP_KIT_AGENT_LOG_LEVEL`, `--log-level`); unknown names fall back to `warn`. */
export function parseLogLevel(value: string | undefined): LogLevel | 'off' {
  if (value === 'off' || value === 'silent') return 'off';
  return (LEVELS as readonly string[]).includes(value ?? '') ? (value as LogLevel) : 'warn';
}

/**
 * A logger writing `acp-kit agent <level>: message {fields}` lines to stderr.
 *
 * @example
 * const logger = createStderrLogger('info');
 * logger.log('info', 'session created', { sessionId });
 */
export function createStderrLogger(level: LogLevel | 'off' = 'warn'): Logger {
  const threshold = level === 'off' ? LEVELS.length : LEVELS.indexOf(level);
  return {
    log(messageLevel, message, fields) {
      if (LEVELS.indexOf(messageLevel) < threshold) return;
      const suffix = fields && Object.keys(fields).length > 0 ? ` ${formatFields(fields)}` : '';
      process.stderr.write(`acp-kit agent ${messageLevel}: ${message}${suffix}\n`);
    },
  };
}

/** A logger that drops everything (library use without diagnostics). */
export const silentLogger: Logger = { log: () => {} };

function formatFields(fields: Record<string, unknown>): string {
  const safe: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (SECRET_FIELD.test(name)) safe[name] = '[redacted]';
    else if (value instanceof Error) safe[name] = `${value.name}: ${value.message}`;
    else safe[name] = value;
  }
  try {
    return JSON.stringify(safe);
  } catch {
    return '{"note":"fields not serialisable"}';
  }
}
