/** The version `acp --version` and `acp doctor` print. */
export const VERSION = '0.1.0';
