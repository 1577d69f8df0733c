/**
 * The workspace's packages as the release tooling sees them: every `packages/*` manifest, the
 * publishable ones (not `private`) in dependency order, and their internal dependencies.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of a package.json the tooling reads or rewrites. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  bin?: string | Record<string, string>;
  main?: string;
  types?: string;
  exports?: unknown;
  files?: string[];
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

/** A workspace package. */
export interface WorkspacePackage {
  /** Absolute directory. */
  dir: string;
  manifest: Manifest;
}

export const DEPENDENCY_FIELDS = [
  'dependencies',
  'peerDependencies',
  'optionalDependencies',
  'devDependencies',
] as const;

/** Every package matched by the root manifest's `workspaces` (`dir/*` patterns or plain dirs). */
export function workspacePackages(root: string): WorkspacePackage[] {
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    workspaces?: string[];
  };
  const dirs: string[] = [];
  for (const pattern of rootManifest.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const parent = join(root, pattern.slice(0, -2));
      for (const name of readdirSync(parent).sort()) dirs.push(join(parent, name));
    } else {
      dirs.push(join(root, pattern));
    }
  }
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
    }));
}

/** Names of `pkg`'s dependencies (any kind) that are among `names`. */
export function internalDependencies(pkg: WorkspacePackage, names: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const field of DEPENDENCY_FIELDS)
    for (const name of Object.keys(pkg.manifest[field] ?? {})) if (names.has(name)) found.add(name);
  return [...found].sort();
}

/**
 * `packages` ordered so that each comes after the packages it depends on (publish order);
 * ties by name. Throws on a dependency cycle.
 */
export function dependencyOrder(packages: readonly WorkspacePackage[]): WorkspacePackage[] {
  const byName = new Map(packages.map((pkg) => [pkg.manifest.name, pkg]));
  const names = new Set(byName.keys());
  const ordered: WorkspacePackage[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`dependency cycle: ${[...path, name].join(' → ')}`);
    state.set(name, 'visiting');
    const pkg = byName.get(name) as WorkspacePackage;
    for (const dependency of internalDependencies(pkg, names)) visit(dependency, [...path, name]);
    state.set(name, 'done');
    ordered.push(pkg);
  };
  for (const name of [...names].sort()) visit(name, []);
  return ordered;
}

/** The packages that are published (not `private`), in publish order. */
export function publishablePackages(root: string): WorkspacePackage[] {
  return dependencyOrder(workspacePackages(root).filter((pkg) => pkg.manifest.private !== true));
}
