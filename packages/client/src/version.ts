/** The package version, read once from package.json (one level above both src/ and dist/). */
import { readFileSync } from 'node:fs';

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Version of `@acp-kit/client` (in the `acp` bundle: of `acp-kit`, the same number), reported as `clientInfo.version`. */
export const CLIENT_VERSION: string = readVersion();
