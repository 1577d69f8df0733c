/**
 * Packs every publishable workspace package into a tarball, the way it would be published:
 *
 *   npx tsx scripts/pack.ts [--out DIR] [--build | --clean-build] [--version X.Y.Z]
 *
 * Each package is copied to a clean staging directory (the files `npm pack` would take, the root
 * LICENSE, and a manifest without the `@acp-kit/source` export condition, devDependencies and
 * scripts; the `acp-kit` bundle also without dependencies, which are inlined), packed there,
 * and the tarball's file list is checked (no tests, fixtures, build info or maps; README,
 * LICENSE and every file the manifest points to are present). `--version` stamps another
 * version on the staged manifests (the release dry run). Default output: `.pack/`.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_PACKAGE_DIR, ROOT } from './bundle.ts';
import { DEPENDENCY_FIELDS, publishablePackages, type Manifest, type WorkspacePackage } from './workspace.ts';

/** The export condition that points workspace tools at `src/`, which is not published. */
export const SOURCE_CONDITION = '@acp-kit/source';

/** `exports` without `condition` (recursively); conditions left empty are dropped. */
export function withoutCondition(value: unknown, condition: string = SOURCE_CONDITION): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === condition) continue;
    const stripped = withoutCondition(inner, condition);
    if (stripped !== null && typeof stripped === 'object' && Object.keys(stripped).length === 0) continue;
    out[key] = stripped;
  }
  return out;
}

/** Options of {@link publishedManifest}. */
export interface PublishOptions {
  /** The package is a bundle: its dependencies are inlined, so none are declared. */
  bundled?: boolean;
  /** Stamp this version, and pin the internal dependencies (`internal`) to it. */
  version?: string;
  /** Names of the workspace's packages. */
  internal?: ReadonlySet<string>;
}

/** The manifest as published. */
export function publishedManifest(manifest: Manifest, options: PublishOptions = {}): Manifest {
  const out: Manifest = { ...manifest };
  delete out.devDependencies;
  delete out.scripts;
  if (options.bundled) delete out.dependencies;
  if (out.exports !== undefined) out.exports = withoutCondition(out.exports);
  if (options.version) {
    out.version = options.version;
    for (const field of DEPENDENCY_FIELDS) {
      const deps = out[field];
      if (!deps) continue;
      out[field] = Object.fromEntries(
        Object.entries(deps).map(([name, range]) => [
          name,
          options.internal?.has(name) ? (options.version as string) : range,
        ]),
      );
    }
  }
  return out;
}

/** Paths a tarball must not contain. */
const FORBIDDEN: readonly [RegExp, string][] = [
  [/(^|\/)(test|tests|__tests__|e2e|fixtures|test-support)\//, 'tests or fixtures'],
  [/\.(test|spec)\.[cm]?[jt]sx?$/, 'a test'],
  [/\.tsbuildinfo$|(^|\/)\.tsbuildinfo/, 'build info'],
  [/\.map$/, 'a source map (maps point into src/, which is not published)'],
  [/(^|\/)src\//, 'sources (only dist/ is published)'],
  [/(^|\/)metafile\.json$/, "the bundler's metafile"],
];

/** Files that `exports`, `main`, `types` and `bin` point to. */
export function referencedFiles(manifest: Manifest): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (!value.includes('*')) found.add(value.replace(/^\.\//, ''));
    } else if (value && typeof value === 'object') {
      for (const inner of Object.values(value)) walk(inner);
    }
  };
  walk(manifest.exports);
  walk(manifest.main);
  walk(manifest.types);
  walk(manifest.bin);
  return [...found].sort();
}

/** What is wrong with a tarball holding `files` (paths inside the package) for `manifest`. */
export function tarballProblems(
  manifest: Manifest,
  files: readonly string[],
  options: PublishOptions = {},
): string[] {
  const problems: string[] = [];
  const has = new Set(files);
  if (!files.some((file) => /^readme(\.md)?$/i.test(file))) problems.push('no README.md');
  if (!files.some((file) => /^licen[cs]e(\.md|\.txt)?$/i.test(file))) problems.push('no LICENSE');
  if (options.bundled && !has.has('THIRD_PARTY_LICENSES.md'))
    problems.push('no THIRD_PARTY_LICENSES.md for the bundled packages');
  for (const file of files) {
    const hit = FORBIDDEN.find(([pattern]) => pattern.test(file));
    if (hit) problems.push(`${file}: ${hit[1]}`);
  }
  for (const file of referencedFiles(manifest))
    if (!has.has(file)) problems.push(`the manifest points to ${file}, which is not in the tarball`);
  if (JSON.stringify(manifest.exports ?? null).includes(SOURCE_CONDITION))
    problems.push(`exports still use the ${SOURCE_CONDITION} condition`);
  if (options.bundled && Object.keys(manifest.dependencies ?? {}).length > 0)
    problems.push('a bundle declares dependencies');
  return problems;
}

interface NpmPackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

function npmPack(dir: string, args: readonly string[]): NpmPackResult {
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', ...args], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [result] = JSON.parse(out) as NpmPackResult[];
  if (!result) throw new Error(`npm pack in ${dir} printed no result`);
  return result;
}

/** A packed package. */
export interface PackedPackage {
  name: string;
  version: string;
  /** Absolute path of the tarball. */
  tarball: string;
  files: string[];
  size: number;
  unpackedSize: number;
  problems: string[];
}

/** Options of {@link packAll}. */
export interface PackOptions {
  /** Where the tarballs go (created; old tarballs of the same names are replaced). */
  outDir: string;
  /** `incremental` runs `npm run build` first; `clean` deletes every dist/ before. */
  build?: 'incremental' | 'clean';
  version?: string;
  root?: string;
}

function stageAndPack(
  pkg: WorkspacePackage,
  dirs: { root: string; stage: string; out: string },
  options: PublishOptions,
): PackedPackage {
  const bundled = resolve(pkg.dir) === resolve(BUNDLE_PACKAGE_DIR);
  const stage = join(dirs.stage, pkg.manifest.name.replace('/', '__'));
  for (const { path } of npmPack(pkg.dir, ['--dry-run']).files) {
    if (path === 'package.json') continue;
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    copyFileSync(join(pkg.dir, path), join(stage, path));
  }
  if (!existsSync(join(stage, 'LICENSE'))) copyFileSync(join(dirs.root, 'LICENSE'), join(stage, 'LICENSE'));
  const manifest = publishedManifest(pkg.manifest, { ...options, bundled });
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const result = npmPack(stage, ['--pack-destination', dirs.out]);
  const files = result.files.map((file) => file.path).sort();
  return {
    name: manifest.name,
    version: manifest.version,
    tarball: join(dirs.out, result.filename),
    files,
    size: result.size,
    unpackedSize: result.unpackedSize,
    problems: tarballProblems(manifest, files, { bundled }),
  };
}

/** Packs every publishable package into `outDir`, in publish order. */
export function packAll(options: PackOptions): PackedPackage[] {
  const root = options.root ?? ROOT;
  if (options.build === 'clean')
    for (const pkg of publishablePackages(root))
      rmSync(join(pkg.dir, 'dist'), { recursive: true, force: true });
  if (options.build)
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const packages = publishablePackages(root);
  const internal = new Set(packages.map((pkg) => pkg.manifest.name));
  mkdirSync(options.outDir, { recursive: true });
  const stageRoot = mkdtempSync(join(tmpdir(), 'acp-kit-stage-'));
  try {
    const dirs = { root, stage: stageRoot, out: options.outDir };
    const version = options.version ? { version: options.version } : {};
    return packages.map((pkg) => stageAndPack(pkg, dirs, { internal, ...version }));
  } finally {
    rmSync(stageRoot, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const option = (name: string): string | undefined => {
    const index = process.argv.indexOf(name);
    return index >= 0 ? process.argv[index + 1] : undefined;
  };
  const build = process.argv.includes('--clean-build')
    ? 'clean'
    : process.argv.includes('--build')
      ? 'incremental'
      : undefined;
  const version = option('--version');
  const packed = packAll({
    outDir: resolve(option('--out') ?? join(ROOT, '.pack')),
    ...(build ? { build } : {}),
    ...(version ? { version } : {}),
  });
  let failed = false;
  for (const pkg of packed) {
    const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`;
    process.stdout.write(
      `${pkg.tarball}  ${pkg.files.length} files, ${kib(pkg.size)} packed, ${kib(pkg.unpackedSize)} unpacked\n`,
    );
    for (const problem of pkg.problems) process.stderr.write(`  ${pkg.name}: ${problem}\n`);
    failed ||= pkg.problems.length > 0;
  }
  process.exitCode = failed ? 1 : 0;
}
