/** The publish-time manifest and the tarball check of scripts/pack.ts, and the package order. */
import { describe, expect, it } from 'vitest';
import { ROOT } from './bundle.ts';
import { publishedManifest, referencedFiles, tarballProblems, withoutCondition } from './pack.ts';
import { dependencyOrder, publishablePackages, type Manifest } from './workspace.ts';

const library: Manifest = {
  name: '@acp-kit/client',
  version: '1.0.0',
  main: './dist/index.js',
  types: './dist/index.d.ts',
  exports: {
    '.': { '@acp-kit/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
    './node': { '@acp-kit/source': './src/node.ts', default: './dist/node.js' },
  },
  scripts: { build: 'tsc' },
  dependencies: { '@acp-kit/protocol': '1.0.0', picomatch: '^4.0.3' },
  devDependencies: { vitest: '^4' },
};
const goodFiles = [
  'LICENSE',
  'README.md',
  'dist/index.d.ts',
  'dist/index.js',
  'dist/node.js',
  'package.json',
];

describe('the published manifest', () => {
  it('drops the source condition, scripts and devDependencies; keeps dependencies of a library', () => {
    const out = publishedManifest(library);
    expect(out.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './node': { default: './dist/node.js' },
    });
    expect(out).not.toHaveProperty('scripts');
    expect(out).not.toHaveProperty('devDependencies');
    expect(out.dependencies).toEqual(library.dependencies);
    expect(JSON.stringify(library.exports)).toContain('@acp-kit/source'); // the input is untouched
  });

  it('declares no dependencies for a bundle', () => {
    expect(publishedManifest(library, { bundled: true })).not.toHaveProperty('dependencies');
  });

  it('stamps a version and pins the internal dependencies to it', () => {
    const out = publishedManifest(library, { version: '2.0.0', internal: new Set(['@acp-kit/protocol']) });
    expect(out.version).toBe('2.0.0');
    expect(out.dependencies).toEqual({ '@acp-kit/protocol': '2.0.0', picomatch: '^4.0.3' });
  });

  it('drops a condition nested in another and entries left empty', () => {
    expect(withoutCondition({ '.': { node: { '@acp-kit/source': './a.ts' }, default: './a.js' } })).toEqual({
      '.': { default: './a.js' },
    });
  });
});

describe('the tarball check', () => {
  const manifest = publishedManifest(library);

  it('accepts dist, README, LICENSE and the manifest', () => {
    expect(referencedFiles(manifest)).toEqual(['dist/index.d.ts', 'dist/index.js', 'dist/node.js']);
    expect(tarballProblems(manifest, goodFiles)).toEqual([]);
  });

  it('refuses tests, fixtures, build info, maps and sources', () => {
    const files = [
      ...goodFiles,
      'dist/index.test.js',
      'dist/e2e/run.js',
      'dist/test-support/harness.js',
      'test/fixtures/frame.json',
      'dist/.tsbuildinfo',
      'dist/index.js.map',
      'src/index.ts',
      'dist/metafile.json',
    ];
    expect(tarballProblems(manifest, files)).toEqual([
      'dist/index.test.js: a test',
      'dist/e2e/run.js: tests or fixtures',
      'dist/test-support/harness.js: tests or fixtures',
      'test/fixtures/frame.json: tests or fixtures',
      'dist/.tsbuildinfo: build info',
      'dist/index.js.map: a source map (maps point into src/, which is not published)',
      'src/index.ts: sources (only dist/ is published)',
      "dist/metafile.json: the bundler's metafile",
    ]);
  });

  it('requires README, LICENSE, the files the manifest points to, and licenses for a bundle', () => {
    const files = goodFiles.filter((file) => !['README.md', 'LICENSE', 'dist/node.js'].includes(file));
    expect(tarballProblems(manifest, files)).toEqual([
      'no README.md',
      'no LICENSE',
      'the manifest points to dist/node.js, which is not in the tarball',
    ]);
    expect(tarballProblems({ ...manifest, dependencies: { x: '1' } }, goodFiles, { bundled: true })).toEqual([
      'no THIRD_PARTY_LICENSES.md for the bundled packages',
      'a bundle declares dependencies',
    ]);
  });

  it('refuses exports that still point at sources', () => {
    expect(tarballProblems(library, [...goodFiles, 'src/index.ts', 'src/node.ts'])).toContain(
      'exports still use the @acp-kit/source condition',
    );
  });
});

describe('the publishable packages', () => {
  it('are the non-private workspace packages, each after what it depends on', () => {
    const packages = publishablePackages(ROOT);
    const names = packages.map((pkg) => pkg.manifest.name);
    expect(names).toEqual(
      expect.arrayContaining([
        '@acp-kit/protocol',
        '@acp-kit/client',
        '@acp-kit/agent',
        '@acp-kit/files',
        'acp-kit',
      ]),
    );
    expect(names).not.toContain('@acp-kit/tui');
    for (const [index, pkg] of packages.entries()) {
      for (const dependency of Object.keys(pkg.manifest.dependencies ?? {})) {
        if (names.includes(dependency)) expect(names.indexOf(dependency)).toBeLessThan(index);
      }
    }
    expect(names.at(-1)).toBe('acp-kit');
  });

  it('refuses a dependency cycle', () => {
    const pkg = (name: string, dep: string) => ({
      dir: name,
      manifest: { name, version: '1.0.0', dependencies: { [dep]: '1.0.0' } },
    });
    expect(() => dependencyOrder([pkg('a', 'b'), pkg('b', 'a')])).toThrow('dependency cycle: a → b → a');
  });
});
