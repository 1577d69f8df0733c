/**
 * Installs the `acp` command from this clone, the way the published package would install it:
 *
 *   npm run install:global [-- --prefix DIR]
 *
 * Builds the workspace (`npm run build`, incremental: what a pull changed), packs every package as
 * it would be published (scripts/pack.ts) into `.pack/`, then runs `npm install --global` on the
 * `acp-kit` tarball
 * (one bundled package, no dependencies). `--prefix DIR` installs into DIR/bin instead of npm's
 * global prefix (for a Node whose global prefix needs root). The same install of a release tarball
 * is one command: `npm install -g ./acp-kit-VERSION.tgz`.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './bundle.ts';
import { packAll } from './pack.ts';

/** Options of {@link installGlobal}. */
export interface InstallOptions {
  /** npm's `--prefix`: the command lands in `prefix/bin`. */
  prefix?: string;
  /** Extra arguments for `npm install` (tests pass `--prefer-offline`). */
  npmArgs?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * `npm install --global` of an `acp-kit` tarball; returns the path of the installed `acp`.
 *
 * @example
 * installGlobal('.pack/acp-kit-0.1.0.tgz', { prefix: '/home/me/.local' }); // '/home/me/.local/bin/acp'
 */
export function installGlobal(tarball: string, options: InstallOptions = {}): string {
  const prefix = options.prefix ?? npmGlobalPrefix(options.env);
  execFileSync(
    'npm',
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--no-audit',
      '--no-fund',
      ...(options.npmArgs ?? []),
      resolve(tarball),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: options.env ?? process.env },
  );
  return join(prefix, 'bin', 'acp');
}

function npmGlobalPrefix(env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync('npm', ['prefix', '--global'], { encoding: 'utf8', env }).trim();
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const at = process.argv.indexOf('--prefix');
  const prefix = at >= 0 ? process.argv[at + 1] : undefined;
  if (at >= 0 && !prefix) {
    process.stderr.write('install:global: --prefix needs a directory\n');
    process.exit(2);
  }
  const packed = packAll({ outDir: join(ROOT, '.pack'), build: 'incremental' });
  const cli = packed.find((pkg) => pkg.name === 'acp-kit');
  const problems = packed.flatMap((pkg) => pkg.problems.map((problem) => `${pkg.name}: ${problem}`));
  if (!cli || problems.length > 0) {
    process.stderr.write(`install:global: packing failed\n${problems.join('\n')}\n`);
    process.exit(1);
  }
  const acp = installGlobal(cli.tarball, prefix ? { prefix: resolve(prefix) } : {});
  process.stdout.write(
    `installed acp-kit ${cli.version} from ${cli.tarball}: ${acp}\n` +
      `(make sure ${join(acp, '..')} is on your PATH; then: acp --agent demo)\n`,
  );
}
