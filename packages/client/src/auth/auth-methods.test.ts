import { describe, expect, it } from 'vitest';
import { describeAuthMethods } from './auth-methods.js';

const agent = { command: '/usr/local/bin/gemini', args: ['--acp'] };

describe('describeAuthMethods', () => {
  it('explains every shape seen in the wild', () => {
    const options = describeAuthMethods(
      [
        { id: 'oauth', name: 'Log in with Google', description: 'opens a browser' },
        { id: 'tui', name: 'Terminal', type: 'terminal', args: ['--login'], env: { SECRET_MODE: 'v' } },
        {
          id: 'key',
          name: 'Key',
          type: 'env_var',
          vars: [{ name: 'GEMINI_API_KEY' }, { name: 'EXTRA', optional: true }],
        },
        {
          id: 'old',
          name: 'Old',
          type: 'env_var',
          varName: 'OPENAI_API_KEY',
          link: 'https://platform.openai.com',
        },
        {
          id: 'setup',
          name: 'Setup',
          _meta: { 'terminal-auth': { command: 'vibe-acp', args: ['--setup'], label: 'Vibe Setup' } },
        },
        { id: 'apikey', name: 'API key', _meta: { 'api-key': { env: ['ANTHROPIC_API_KEY'] } } },
        { id: 'gemini-api-key', name: 'Gemini API key', _meta: { 'api-key': { provider: 'google' } } },
        { id: 'gw', name: 'Gateway', _meta: { gateway: { protocol: 'anthropic' } } },
        { name: 'no id' },
        'garbage',
      ],
      agent,
    );
    expect(options.map((o) => [o.id, o.kind, o.action])).toEqual([
      ['oauth', 'agent', 'authenticate'],
      ['tui', 'terminal', 'run-terminal'],
      ['key', 'env_var', 'user'],
      ['old', 'env_var', 'user'],
      ['setup', 'meta-terminal', 'run-terminal'],
      ['apikey', 'api-key', 'user'],
      ['gemini-api-key', 'api-key', 'authenticate'],
      ['gw', 'gateway', 'user'],
    ]);
    const byId = Object.fromEntries(options.map((o) => [o.id, o]));
    expect(byId.tui?.run).toEqual({
      command: '/usr/local/bin/gemini',
      args: ['--acp', '--login'],
      env: { SECRET_MODE: 'v' },
    });
    expect(byId.tui?.instructions).toBe(
      'run `SECRET_MODE=… /usr/local/bin/gemini --acp --login` in a terminal and follow its prompts',
    );
    expect(byId.tui?.instructions).not.toContain('=v');
    // Pasteable: a plain setting is shown; anything that may be a secret stays hidden.
    const [auggie] = describeAuthMethods(
      [
        {
          id: 'login',
          name: 'Log in',
          type: 'terminal',
          args: ['login'],
          env: {
            AUGMENT_DISABLE_AUTO_UPDATE: '1',
            AUGMENT_TENANT: 'd1.api.example.com',
            AUGMENT_SESSION_AUTH: '{"accessToken":"a"}',
            OTHER: 'ghp_0123456789abcdefghij0123',
          },
        },
      ],
      { command: 'auggie', args: ['--acp'] },
    );
    expect(auggie?.instructions).toBe(
      'run `AUGMENT_DISABLE_AUTO_UPDATE=1 AUGMENT_TENANT=d1.api.example.com AUGMENT_SESSION_AUTH=… OTHER=… auggie --acp login` in a terminal and follow its prompts',
    );
    expect(byId.key?.instructions).toBe('set GEMINI_API_KEY in the environment, then run acp again');
    expect(byId.old?.instructions).toContain('OPENAI_API_KEY');
    expect(byId.old?.instructions).toContain('https://platform.openai.com');
    expect(byId.setup?.instructions).toBe('run `vibe-acp --setup` in a terminal (Vibe Setup)');
    expect(byId.apikey?.instructions).toContain('ANTHROPIC_API_KEY');
    expect(byId.apikey?.input).toBeUndefined();
    expect(byId['gemini-api-key']?.input).toEqual({ field: 'api-key', label: 'google API key' });
    expect(describeAuthMethods(undefined, agent)).toEqual([]);
  });
});
