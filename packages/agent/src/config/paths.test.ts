/** The agent's files under the one naming scheme of docs/configuration.md, and the old names. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../test-support/harness.js';
import { logLevelName, resolveConfigPath, resolveDataDir, usesLegacyDataLayout } from './paths.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('paths');
});
afterEach(() => removeDir(dir));

describe('the agent data directory', () => {
  it('is <acp-kit data dir>/agent, unless the agent has its own or a flag says', () => {
    expect(resolveDataDir({ XDG_DATA_HOME: '/xdg' })).toBe('/xdg/acp-kit/agent');
    expect(resolveDataDir({ ACP_KIT_DATA_DIR: '/x/data' })).toBe('/x/data/agent');
    expect(resolveDataDir({ ACP_KIT_DATA_DIR: '/x/data', ACP_KIT_AGENT_DATA_DIR: '/own' })).toBe('/own');
    expect(resolveDataDir({ ACP_KIT_AGENT_DATA_DIR: '/own' }, '/flag')).toBe('/flag');
  });

  it('keeps using a directory in the old layout, where ACP_KIT_DATA_DIR named the agent directory itself', () => {
    expect(usesLegacyDataLayout({ ACP_KIT_DATA_DIR: dir })).toBe(false);
    mkdirSync(join(dir, 'sessions', 'model'), { recursive: true });
    expect(usesLegacyDataLayout({ ACP_KIT_DATA_DIR: dir })).toBe(true);
    expect(resolveDataDir({ ACP_KIT_DATA_DIR: dir })).toBe(dir);
    mkdirSync(join(dir, 'agent'));
    expect(resolveDataDir({ ACP_KIT_DATA_DIR: dir })).toBe(join(dir, 'agent'));
  });
});

describe('the agent config file', () => {
  it('is agent.json in the acp-kit config dir, or ACP_KIT_AGENT_CONFIG_FILE (formerly ACP_KIT_CONFIG)', () => {
    expect(resolveConfigPath({ XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/acp-kit/agent.json');
    expect(resolveConfigPath({ ACP_KIT_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/cfg' })).toBe('/c/agent.json');
    expect(resolveConfigPath({ ACP_KIT_AGENT_CONFIG_FILE: '/a.json', ACP_KIT_CONFIG_DIR: '/c' })).toBe(
      '/a.json',
    );
    expect(resolveConfigPath({ ACP_KIT_CONFIG: '/old.json' })).toBe('/old.json');
    expect(resolveConfigPath({ ACP_KIT_CONFIG: '/old.json', ACP_KIT_AGENT_CONFIG_FILE: '/new.json' })).toBe(
      '/new.json',
    );
    expect(resolveConfigPath({ ACP_KIT_AGENT_CONFIG_FILE: '/a.json' }, '/flag.json')).toBe('/flag.json');
  });
});

describe('the log level', () => {
  it('is ACP_KIT_AGENT_LOG_LEVEL, formerly ACP_KIT_LOG', () => {
    expect(logLevelName({ ACP_KIT_AGENT_LOG_LEVEL: 'debug', ACP_KIT_LOG: 'info' })).toBe('debug');
    expect(logLevelName({ ACP_KIT_LOG: 'info' })).toBe('info');
    expect(logLevelName({})).toBeUndefined();
  });
});
