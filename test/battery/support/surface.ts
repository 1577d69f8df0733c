/**
 * L: a workspace laid out for attacks on saved command rules. It is a git repository with a
 * `package.json` test script and a `Makefile`, so that `git status`, `npm test` and `make` are
 * real commands a user would allow; under `.agent/` are the files a hostile agent wrote there
 * (a home with `.gitconfig` and `.npmrc`, an XDG config, a bare repository, a shell, a makefile),
 * each of which runs a payload that creates a marker file when a command picks it up.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  resolveClientPaths,
  type AgentConnection,
  type BaseMode,
  type ClientSession,
  type PermissionAnswer,
  type PermissionAsk,
} from '@acp-kit/client';
import type { CanaryWatch } from './canary.js';
import { makeHome, type BatteryHome } from './procs.js';
import { batteryClient, relayEntry, relayTerminal, type BatteryClient, type RelayAnswer } from './relay.js';

/** The workspace, its hostile files, and where payloads leave their markers. */
export interface SurfaceHome {
  home: BatteryHome;
  /** Markers are created here (outside the workspace), one file per payload that ran. */
  markers: string;
  /** A directory outside the roots. */
  outside: string;
  /** The agent-written files, by what they are. */
  files: {
    home: string;
    xdg: string;
    repo: string;
    shell: string;
    npmrc: string;
    makefile: string;
  };
}

function git(args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

/** A payload in shell syntax: creates the marker `name`. */
export function touchMarker(surface: Pick<SurfaceHome, 'markers'>, name: string): string {
  return `touch ${join(surface.markers, name)}`;
}

/** Lays the workspace out (see the module comment). */
export function surfaceHome(prefix: string): SurfaceHome {
  const home = makeHome(prefix);
  const markers = join(home.root, 'markers');
  const outside = join(home.root, 'outside');
  const agent = join(home.work, '.agent');
  for (const dir of [markers, outside, agent]) mkdirSync(dir, { recursive: true });
  const surface: SurfaceHome = {
    home,
    markers,
    outside,
    files: {
      home: join(agent, 'home'),
      xdg: join(agent, 'xdg'),
      repo: join(agent, 'repo'),
      shell: join(agent, 'sh'),
      npmrc: join(agent, 'npmrc'),
      makefile: join(agent, 'x.mk'),
    },
  };
  const { files } = surface;
  git(['init', '-q', '.'], home.work, home.env);
  writeFileSync(
    join(home.work, 'package.json'),
    JSON.stringify({ name: 'w', version: '1.0.0', scripts: { test: 'echo npm-test-ran' } }),
  );
  writeFileSync(join(home.work, 'Makefile'), 'all:\n\t@echo make-ran\n');
  writeFileSync(join(outside, 'outside-file'), 'outside\n');
  // git runs core.fsmonitor through the shell on `git status`.
  const fsmonitor = (name: string) => `[core]\n\tfsmonitor = "${touchMarker(surface, name)}; false"\n`;
  mkdirSync(files.home);
  writeFileSync(join(files.home, '.gitconfig'), fsmonitor('git-home'));
  writeFileSync(join(files.home, '.npmrc'), `script-shell=${files.shell}\n`);
  mkdirSync(join(files.xdg, 'git'), { recursive: true });
  writeFileSync(join(files.xdg, 'git', 'config'), fsmonitor('git-xdg'));
  git(['init', '-q', '--bare', files.repo], home.work, home.env);
  writeFileSync(join(files.repo, 'config'), `${fsmonitor('git-dir')}\tbare = false\n`);
  // npm runs scripts with this "shell": it leaves a marker, then runs the script as sh would.
  writeFileSync(files.shell, `#!/bin/sh\n${touchMarker(surface, 'shell')}\nexec /bin/sh "$@"\n`);
  chmodSync(files.shell, 0o755);
  writeFileSync(files.npmrc, `script-shell=${files.shell}\n`);
  writeFileSync(files.makefile, `$(shell ${touchMarker(surface, 'makefiles')})\n`);
  return surface;
}

/** The markers created so far. */
export function markersOf(surface: SurfaceHome): string[] {
  return readdirSync(surface.markers);
}

/**
 * The variables of the attack, each pointing at what the agent wrote (or, `GIT_WORK_TREE`, at a
 * directory outside the workspace): what git, npm and make read to find their configuration.
 */
export function attackVariables(surface: SurfaceHome): { name: string; value: string }[] {
  const { files } = surface;
  return [
    { name: 'HOME', value: files.home },
    { name: 'XDG_CONFIG_HOME', value: files.xdg },
    { name: 'GIT_DIR', value: files.repo },
    { name: 'GIT_WORK_TREE', value: surface.outside },
    { name: 'npm_config_script_shell', value: files.shell },
    { name: 'NPM_CONFIG_USERCONFIG', value: files.npmrc },
    { name: 'MAKEFILES', value: files.makefile },
    { name: 'MAKEFLAGS', value: `--eval=$(shell ${touchMarker(surface, 'makeflags')})` },
  ];
}

/** The commands a user allows with a saved rule, as the agent sends them (argv, no shell). */
export const ALLOWED_COMMANDS = [
  { rule: 'git status', command: 'git', args: ['status'] },
  { rule: 'npm test', command: 'npm', args: ['test'] },
  { rule: 'make', command: 'make', args: [] as string[] },
];

/** A client engine over the surface's home, its saved rules, a session and a recording host. */
export interface Surface {
  battery: BatteryClient;
  agent: AgentConnection;
  session: ClientSession;
  asks: PermissionAsk[];
  /** `terminal/create`, and when it was created: wait for its exit, read its output, release it. */
  run(params: Record<string, unknown>): Promise<{ created: RelayAnswer; output?: RelayAnswer }>;
  close(): Promise<void>;
}

/** Opens a session in the surface's workspace with `rules` saved (rules.json) and base `mode`. */
export async function openSurface(
  surface: SurfaceHome,
  options: {
    watch: CanaryWatch;
    mode: BaseMode;
    rules: Record<string, unknown>[];
    answer?: (ask: PermissionAsk) => PermissionAnswer;
  },
): Promise<Surface> {
  const { home } = surface;
  writeFileSync(resolveClientPaths(home.env).rulesFile, JSON.stringify({ rules: options.rules }));
  const asks: PermissionAsk[] = [];
  const battery = await batteryClient({
    watch: options.watch,
    mode: options.mode,
    home,
    host: {
      askPermission: async (ask) => {
        asks.push(ask);
        return options.answer?.(ask) ?? { decision: 'deny' };
      },
    },
  });
  const agent = await battery.client.connect(relayEntry());
  const session = await agent.newSession({ cwd: home.work });
  const sessionId = session.agentSessionId ?? '';
  return {
    battery,
    agent,
    session,
    asks,
    run: (params) => relayTerminal(agent, sessionId, params),
    close: () => battery.close(),
  };
}
