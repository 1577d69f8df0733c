/** The version of `acp` (the `acp-kit` package), read once from package.json. */
import { readFileSync } from 'node:fs';

// package.json is one level above both src/ (workspace) and dist/ (the bundle).
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The version `acp --version` and `acp doctor` print. */
export const VERSION: string = manifest.version;
