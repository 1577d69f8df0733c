import { describe, expect, it } from 'vitest';
import { builtinAgents } from '../catalog/builtins.js';
import { agentEnvironment, parsePassEnv, passesEnv } from './agent-env.js';

const ours = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  SSH_AUTH_SOCK: '/tmp/ssh.sock',
  LANG: 'C.UTF-8',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  AWS_REGION: 'eu-west-1',
  GITHUB_TOKEN: 'ghp_x',
  OPENAI_API_KEY: 'sk-openai',
  ANTHROPIC_API_KEY: 'sk-ant',
  DB_PASSWORD: 'hunter2',
  UNSET: undefined,
};

describe('agentEnvironment', () => {
  it('holds back credential-named variables and keeps the rest', () => {
    const { env, withheld } = agentEnvironment(ours, {});
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      SSH_AUTH_SOCK: '/tmp/ssh.sock',
      LANG: 'C.UTF-8',
      AWS_REGION: 'eu-west-1',
    });
    expect(withheld).toEqual([
      'ANTHROPIC_API_KEY',
      'AWS_SECRET_ACCESS_KEY',
      'DB_PASSWORD',
      'GITHUB_TOKEN',
      'OPENAI_API_KEY',
    ]);
  });

  it("passes what the entry or the user's passEnv names, and adds the entry's env on top", () => {
    const { env, withheld } = agentEnvironment(
      ours,
      { passEnv: ['OPENAI_*'], env: { AWS_SECRET_ACCESS_KEY: 'configured', LEVEL: '3' } },
      ['GITHUB_TOKEN'],
    );
    expect(env.OPENAI_API_KEY).toBe('sk-openai');
    expect(env.GITHUB_TOKEN).toBe('ghp_x');
    expect(env.AWS_SECRET_ACCESS_KEY).toBe('configured');
    expect(env.LEVEL).toBe('3');
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(withheld).toEqual(['ANTHROPIC_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD']);
  });

  it('gives each built-in agent its own provider keys and no other credentials', () => {
    const byId = new Map(builtinAgents().map((entry) => [entry.id, entry]));
    const env = (id: string) => agentEnvironment(ours, byId.get(id) ?? {}).env;
    expect(env('claude')).toMatchObject({ ANTHROPIC_API_KEY: 'sk-ant', AWS_SECRET_ACCESS_KEY: 'aws-secret' });
    expect(env('claude').OPENAI_API_KEY).toBeUndefined();
    expect(env('codex')).toMatchObject({ OPENAI_API_KEY: 'sk-openai' });
    expect(env('codex').AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env('acp-kit')).toMatchObject({ OPENAI_API_KEY: 'sk-openai', ANTHROPIC_API_KEY: 'sk-ant' });
    // GitHub Copilot CLI signs in with a GitHub token; no other agent gets one.
    expect(env('copilot').GITHUB_TOKEN).toBe('ghp_x');
    for (const id of byId.keys()) if (id !== 'copilot') expect(env(id).GITHUB_TOKEN, id).toBeUndefined();
    expect(Object.keys(env('demo')).sort()).toEqual(['AWS_REGION', 'HOME', 'LANG', 'PATH', 'SSH_AUTH_SOCK']);
  });
});

describe('passesEnv and parsePassEnv', () => {
  it('matches exact names, prefixes and *', () => {
    expect(passesEnv('GH_TOKEN', ['GH_TOKEN'])).toBe(true);
    expect(passesEnv('GH_TOKEN_2', ['GH_TOKEN'])).toBe(false);
    expect(passesEnv('AWS_SESSION_TOKEN', ['AWS_*'])).toBe(true);
    expect(passesEnv('anything', ['*'])).toBe(true);
    expect(passesEnv('gh_token', ['GH_TOKEN'])).toBe(false);
  });

  it('reads a list separated by commas or spaces', () => {
    expect(parsePassEnv(' GH_TOKEN, NPM_TOKEN  AWS_*,')).toEqual(['GH_TOKEN', 'NPM_TOKEN', 'AWS_*']);
    expect(parsePassEnv(undefined)).toEqual([]);
  });
});
