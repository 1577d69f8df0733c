/** The pieces of the release script that change files: versions, manifests, the changelog. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bumpManifest,
  hardCodedVersions,
  lockstepVersion,
  nextVersion,
  releaseChangelog,
} from './release.ts';

describe('the next version', () => {
  it('bumps major, minor or patch, or takes an explicit version', () => {
    expect(nextVersion('0.1.0', 'patch')).toBe('0.1.1');
    expect(nextVersion('0.1.3', 'minor')).toBe('0.2.0');
    expect(nextVersion('0.1.3', 'major')).toBe('1.0.0');
    expect(nextVersion('1.0.0-rc.1', 'patch')).toBe('1.0.0');
    expect(nextVersion('0.1.0', '1.0.0-rc.1')).toBe('1.0.0-rc.1');
  });

  it('refuses what is not a version, and the current one', () => {
    expect(() => nextVersion('0.1.0', 'next')).toThrow('"next" is not a version');
    expect(() => nextVersion('0.1.0', '0.1.0')).toThrow('already at 0.1.0');
  });

  it('is one for all packages', () => {
    expect(
      lockstepVersion([
        { name: 'a', version: '1.0.0' },
        { name: 'b', version: '1.0.0' },
      ]),
    ).toBe('1.0.0');
    expect(() =>
      lockstepVersion([
        { name: 'a', version: '1.0.0' },
        { name: 'b', version: '1.1.0' },
      ]),
    ).toThrow('one version: a@1.0.0, b@1.1.0');
  });
});

describe('bumping a manifest', () => {
  it('sets the version and pins internal dependencies of every kind to it', () => {
    const manifest = {
      name: 'acp-kit',
      version: '0.1.0',
      dependencies: { '@acp-kit/protocol': '0.1.0', commander: '^14.0.0' },
      devDependencies: { '@acp-kit/tui': '0.1.0' },
    };
    expect(bumpManifest(manifest, '0.2.0', new Set(['@acp-kit/protocol', '@acp-kit/tui']))).toEqual({
      name: 'acp-kit',
      version: '0.2.0',
      dependencies: { '@acp-kit/protocol': '0.2.0', commander: '^14.0.0' },
      devDependencies: { '@acp-kit/tui': '0.2.0' },
    });
  });
});

describe('the changelog', () => {
  const changelog =
    '# Changelog\n\nIntro.\n\n## Unreleased\n\n- Added a thing.\n\n## 0.1.0 - 2026-01-01\n\n- First.\n';

  it('moves the unreleased notes under the version and leaves an empty Unreleased section', () => {
    expect(releaseChangelog(changelog, '0.2.0', '2026-02-02')).toBe(
      '# Changelog\n\nIntro.\n\n## Unreleased\n\n## 0.2.0 - 2026-02-02\n\n- Added a thing.\n\n## 0.1.0 - 2026-01-01\n\n- First.\n',
    );
    expect(releaseChangelog('## [Unreleased]\n\n- Only.\n', '1.0.0', 'd')).toBe(
      '## Unreleased\n\n## 1.0.0 - d\n\n- Only.\n',
    );
  });

  it('refuses a release without notes', () => {
    expect(() => releaseChangelog('# Changelog\n', '0.2.0', 'd')).toThrow('no "## Unreleased" section');
    expect(() => releaseChangelog('## Unreleased\n\n## 0.1.0\n', '0.2.0', 'd')).toThrow('is empty');
  });
});

describe('hard-coded versions', () => {
  it('finds quoted copies of the version in sources, not in tests', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-release-'));
    try {
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'sub/info.ts'), "export const VERSION = '0.1.0';\n");
      writeFileSync(join(dir, 'info.test.ts'), "expect(v).toBe('0.1.0');\n");
      writeFileSync(join(dir, 'other.ts'), "const range = '0.1.02';\n");
      expect(hardCodedVersions(dir, '0.1.0')).toEqual([join(dir, 'sub/info.ts')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
