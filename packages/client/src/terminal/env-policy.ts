/**
 * Environment variables that change which code a program loads or runs (dynamic loader,
 * interpreters, shells). An agent setting them for a command needs the user's explicit approval.
 */

const SENSITIVE_NAMES = new Set([
  'PATH',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'GCONV_PATH',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'PYTHONINSPECT',
  'PERL5LIB',
  'PERL5OPT',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'PS4',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXEC_PATH',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'EDITOR',
  'VISUAL',
  'PAGER',
]);
const SENSITIVE_PREFIXES = ['DYLD_', 'LD_', 'BASH_FUNC_', 'GIT_CONFIG_'];

/** Whether setting `name` changes how programs load or what they run. */
export function isSensitiveEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return SENSITIVE_NAMES.has(upper) || SENSITIVE_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/** A valid environment variable name (no `=`, no NUL, not empty). */
export function isValidEnvName(name: string): boolean {
  return name !== '' && !name.includes('=') && !name.includes('\0');
}
