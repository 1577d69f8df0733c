/**
 * THIRD_PARTY_LICENSES.md of the `acp-kit` bundle: every npm package with code in the bundle
 * (from esbuild's metafile), its license and the full text of its license files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';

/** A bundled package. */
export interface BundledPackage {
  name: string;
  version: string;
  license: string;
  /** Directory, relative to the repository root. */
  dir: string;
}

const LICENSE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;

/** `node_modules/a/node_modules/@b/c/x.js` → `node_modules/a/node_modules/@b/c`. */
export function packageDirOf(input: string): string | undefined {
  const parts = input.split('/');
  const last = parts.lastIndexOf('node_modules');
  if (last < 0 || last + 1 >= parts.length) return undefined;
  const length = parts[last + 1]?.startsWith('@') ? 3 : 2;
  return parts.slice(0, last + length).join('/');
}

function licenseOf(manifest: { license?: unknown; licenses?: unknown }): string | undefined {
  const { license, licenses } = manifest;
  if (typeof license === 'string') return license;
  if (license && typeof license === 'object' && 'type' in license) return String(license.type);
  if (Array.isArray(licenses)) return licenses.map((l: { type?: unknown }) => String(l.type)).join(' OR ');
  return undefined;
}

/** The packages that put bytes into any output of the bundle, sorted by name. */
export function bundledPackages(metafile: Metafile, root: string): BundledPackage[] {
  const dirs = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const dir = bytesInOutput > 0 ? packageDirOf(input) : undefined;
      if (dir) dirs.add(dir);
    }
  }
  const byId = new Map<string, BundledPackage>();
  for (const dir of dirs) {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      license?: unknown;
      licenses?: unknown;
    };
    const license = licenseOf(manifest);
    if (!license) throw new Error(`${dir}: no license declared; it cannot be bundled without one`);
    byId.set(`${manifest.name}@${manifest.version}`, {
      name: manifest.name,
      version: manifest.version,
      license,
      dir,
    });
  }
  return [...byId.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  );
}

/** The Markdown file: one section per package with its license files, verbatim. */
export function thirdPartyLicenses(metafile: Metafile, root: string): string {
  const sections = bundledPackages(metafile, root).map((pkg) => {
    const files = readdirSync(join(root, pkg.dir))
      .filter((name) => LICENSE_FILE.test(name))
      .sort();
    const texts = files.map(
      (name) => '```text\n' + readFileSync(join(root, pkg.dir, name), 'utf8').trimEnd() + '\n```\n',
    );
    const body =
      texts.length > 0
        ? texts.join('\n')
        : `The package ships no license file; it declares ${pkg.license}.\n`;
    return `## ${pkg.name} ${pkg.version} (${pkg.license})\n\n${body}`;
  });
  return (
    '# Third-party software in acp-kit\n\n' +
    'The `acp` bundle (`dist/`) contains code from the npm packages below, under their own licenses.\n' +
    'acp-kit itself is licensed under Apache-2.0 (see LICENSE).\n\n' +
    sections.join('\n')
  );
}
