/**
 * `npm ci` stays quiet: npm 11 skips the install scripts of dependencies that the root
 * package.json's `allowScripts` does not name, and ends every install with a warning listing them.
 * Each dependency with an install script in the lock file has a decision there (esbuild's
 * postinstall is denied: it only re-checks or re-downloads the platform binary that npm already
 * installed as an optional dependency, and the bundle is built with esbuild's JS API).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './bundle.ts';

interface LockFile {
  packages: Record<string, { hasInstallScript?: boolean; dev?: boolean }>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as LockFile;

describe('install scripts of dependencies', () => {
  it('each has a decision in allowScripts, so npm ci prints no warning about them', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path.includes('node_modules/') && entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts).toContain('esbuild');
    const decided = Object.keys(manifest.allowScripts ?? {}).map((key) => key.replace(/(.)@.*$/, '$1'));
    expect(withScripts.filter((name) => !decided.includes(name))).toEqual([]);
  });

  it("denies esbuild's postinstall: the build uses the platform package npm installs", () => {
    expect(manifest.allowScripts?.esbuild).toBe(false);
  });
});
