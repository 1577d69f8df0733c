/**
 * Environment variables renamed when acp-kit's configuration got one naming scheme
 * (docs/configuration.md, "Deprecated names"). The old names still work; `acp` says once, on
 * stderr, what to rename. Pure data, so every start of `acp` can check it.
 */

/** An old name and the name that replaces it. */
export interface DeprecatedName {
  readonly old: string;
  readonly current: string;
}

/** Every renamed variable. The readers (agent, terminal UI) still accept the old names. */
export const DEPRECATED_ENV: readonly DeprecatedName[] = [
  { old: 'ACP_KIT_CONFIG', current: 'ACP_KIT_AGENT_CONFIG_FILE' },
  { old: 'ACP_KIT_LOG', current: 'ACP_KIT_AGENT_LOG_LEVEL' },
  { old: 'ACP_KIT_TUI_LOG', current: 'ACP_KIT_TUI_LOG_FILE' },
  { old: 'ACP_KIT_TUI_METRICS', current: 'ACP_KIT_TUI_METRICS_FILE' },
];

/**
 * One line per old name that is set: what to rename it to.
 *
 * @example
 * deprecatedEnvWarnings({ ACP_KIT_LOG: 'debug' });
 * // ['ACP_KIT_LOG is deprecated: rename it to ACP_KIT_AGENT_LOG_LEVEL (docs/configuration.md)']
 */
export function deprecatedEnvWarnings(env: Readonly<Record<string, string | undefined>>): string[] {
  return DEPRECATED_ENV.filter(({ old }) => env[old] !== undefined && env[old] !== '').map(
    ({ old, current }) =>
      env[current]
        ? `${old} is deprecated and ignored because ${current} is set; remove it`
        : `${old} is deprecated: rename it to ${current} (docs/configuration.md)`,
  );
}
