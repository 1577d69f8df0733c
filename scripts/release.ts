/**
 * The maintainer's release script (see docs/releasing.md). All packages share one version.
 *
 *   npm run release -- <X.Y.Z | major | minor | patch>            dry run (default): plan + packed tarballs
 *   npm run release -- <X.Y.Z | major | minor | patch> --apply    bump, changelog, checks, pack
 *
 * The dry run changes no tracked file: it prints what would change and packs the tarballs with
 * the new version stamped on them into .pack/. `--apply` writes the versions (and the internal
 * dependency ranges, pinned to the version) of every workspace package, moves CHANGELOG.md's
 * "## Unreleased" section under the version, updates the lock file, runs `npm run check`, packs
 * from a clean build, and prints the commit, tag and `npm publish` commands in dependency order.
 * It never publishes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './bundle.ts';
import { packAll, type PackedPackage } from './pack.ts';
import { DEPENDENCY_FIELDS, workspacePackages, type Manifest } from './workspace.ts';

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?$/;

/** The version after `current`: `spec` is `major`, `minor`, `patch` or an explicit version. */
export function nextVersion(current: string, spec: string): string {
  const match = SEMVER.exec(current);
  if (!match) throw new Error(`the current version ${current} is not X.Y.Z`);
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (spec === 'major') return `${major + 1}.0.0`;
  if (spec === 'minor') return `${major}.${minor + 1}.0`;
  if (spec === 'patch') return match[4] ? `${major}.${minor}.${patch}` : `${major}.${minor}.${patch + 1}`;
  if (!SEMVER.test(spec)) throw new Error(`"${spec}" is not a version (X.Y.Z) nor major, minor or patch`);
  if (spec === current) throw new Error(`the packages are already at ${current}`);
  return spec;
}

/** The one version of all workspace packages; throws when they differ. */
export function lockstepVersion(manifests: readonly Manifest[]): string {
  const versions = new Set(manifests.map((manifest) => manifest.version));
  if (versions.size !== 1)
    throw new Error(
      `the packages must share one version: ${manifests.map((m) => `${m.name}@${m.version}`).join(', ')}`,
    );
  return [...versions][0] as string;
}

/** `manifest` at `version`, with its dependencies on `internal` packages pinned to it. */
export function bumpManifest(manifest: Manifest, version: string, internal: ReadonlySet<string>): Manifest {
  const out: Manifest = { ...manifest, version };
  for (const field of DEPENDENCY_FIELDS) {
    const deps = manifest[field];
    if (!deps) continue;
    out[field] = Object.fromEntries(
      Object.entries(deps).map(([name, range]) => [name, internal.has(name) ? version : range]),
    );
  }
  return out;
}

const UNRELEASED = /^## \[?Unreleased\]?[ \t]*$/im;

/**
 * CHANGELOG.md with the notes under "## Unreleased" moved to "## VERSION - DATE" and an empty
 * "## Unreleased" left on top. Throws when there is no such section or it is empty.
 */
export function releaseChangelog(text: string, version: string, date: string): string {
  const heading = UNRELEASED.exec(text);
  if (!heading) throw new Error('CHANGELOG.md has no "## Unreleased" section');
  const start = heading.index + heading[0].length;
  const next = /^## /m.exec(text.slice(start));
  const end = next ? start + next.index : text.length;
  const notes = text.slice(start, end).trim();
  if (notes === '') throw new Error('CHANGELOG.md: "## Unreleased" is empty; write the release notes first');
  const rest = text.slice(end).trimStart();
  return `${text.slice(0, heading.index)}## Unreleased\n\n## ${version} - ${date}\n\n${notes}\n${rest ? `\n${rest}` : ''}`;
}

/** Non-test source files under `dir` that still spell `version` in quotes (a copy that would go stale). */
export function hardCodedVersions(dir: string, version: string): string[] {
  const found: string[] = [];
  const quoted = new RegExp(`['"\`]${version.replaceAll('.', '\\.')}['"\`]`);
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) {
        if (!['node_modules', 'dist', 'test-support', 'e2e', 'fixtures'].includes(name)) walk(path);
      } else if (/\.(ts|tsx|mjs|js)$/.test(name) && !/\.test\./.test(name)) {
        if (quoted.test(readFileSync(path, 'utf8'))) found.push(path);
      }
    }
  };
  walk(dir);
  return found.sort();
}

function publishCommands(packed: readonly PackedPackage[]): string[] {
  return packed.map(
    (pkg) =>
      `npm publish ${relative(ROOT, pkg.tarball)}${pkg.name.startsWith('@') ? ' --access public' : ''}`,
  );
}

function main(argv: readonly string[]): void {
  const spec = argv.find((arg) => !arg.startsWith('--'));
  const apply = argv.includes('--apply');
  if (!spec) throw new Error('usage: npm run release -- <X.Y.Z | major | minor | patch> [--apply]');
  const packages = workspacePackages(ROOT);
  const current = lockstepVersion(packages.map((pkg) => pkg.manifest));
  const version = nextVersion(current, spec);
  const internal = new Set(packages.map((pkg) => pkg.manifest.name));
  const say = (text: string): void => void process.stdout.write(`${text}\n`);
  say(`${apply ? 'Releasing' : 'Dry run of releasing'} ${current} → ${version}`);

  const changelogPath = join(ROOT, 'CHANGELOG.md');
  const date = new Date().toISOString().slice(0, 10);
  let changelog: string | undefined;
  try {
    if (!existsSync(changelogPath))
      throw new Error('there is no CHANGELOG.md with a "## Unreleased" section');
    changelog = releaseChangelog(readFileSync(changelogPath, 'utf8'), version, date);
    say(`  CHANGELOG.md: "## Unreleased" becomes "## ${version} - ${date}"`);
  } catch (error) {
    if (apply) throw error;
    say(`  warning: ${(error as Error).message} (--apply needs it)`);
  }
  for (const pkg of packages)
    say(`  ${relative(ROOT, pkg.dir)}/package.json: ${pkg.manifest.name} ${version}`);
  for (const path of packages.flatMap((pkg) => hardCodedVersions(join(pkg.dir, 'src'), current)))
    say(`  warning: ${relative(ROOT, path)} spells the version ${current}; read it from package.json`);

  if (apply) {
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim();
    if (dirty && !argv.includes('--allow-dirty'))
      throw new Error('the working tree has changes; commit them first (or pass --allow-dirty)');
    for (const pkg of packages)
      writeFileSync(
        join(pkg.dir, 'package.json'),
        `${JSON.stringify(bumpManifest(pkg.manifest, version, internal), null, 2)}\n`,
      );
    if (changelog !== undefined) writeFileSync(changelogPath, changelog);
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    execFileSync('npm', ['run', 'check'], { cwd: ROOT, stdio: 'inherit' });
  }

  const outDir = join(ROOT, '.pack');
  rmSync(outDir, { recursive: true, force: true });
  const packed = packAll({ outDir, build: apply ? 'clean' : 'incremental', ...(apply ? {} : { version }) });
  const problems = packed.flatMap((pkg) => pkg.problems.map((problem) => `${pkg.name}: ${problem}`));
  for (const pkg of packed) say(`  packed ${relative(ROOT, pkg.tarball)} (${pkg.files.length} files)`);
  if (problems.length > 0) throw new Error(`the tarballs are not publishable:\n  ${problems.join('\n  ')}`);
  say(apply ? '\nNext, review the diff, then:' : '\nWith --apply, the release would end with:');
  say(`  git commit -am "release: ${version}" && git tag v${version}`);
  for (const command of publishCommands(packed)) say(`  ${command}`);
  say(`  git push && git push origin v${version}`);
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`release: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
