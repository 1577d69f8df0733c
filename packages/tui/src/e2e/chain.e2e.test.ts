/**
 * `acp chain` under the terminal UI, in a real terminal (tmux): `acp -- acp chain --trace FILE --
 * acp agent --demo`, a full demo turn by keyboard, and the trace file holding every message of it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, makeDirs } from './tmux-harness.js';
import { tmuxPerTest } from './tmux-per-test.js';

const tmux = tmuxPerTest();
const require = createRequire(import.meta.url);
const ACP = [
  process.execPath,
  '--conditions=@acp-kit/source',
  `--import=${pathToFileURL(require.resolve('tsx')).href}`,
  join(REPO_ROOT, 'packages/cli/src/cli.ts'),
];

describe('acp chain under the terminal UI', () => {
  it('runs a full demo turn through the trace proxy, which records every message', async () => {
    const dirs = tmux.keep(makeDirs());
    const trace = join(dirs.root, 'chain-trace.jsonl');
    const h = tmux.launch({
      dirs,
      args: ['--', ...ACP, 'chain', '--trace', trace, '--', ...ACP, 'agent', '--demo'],
      env: { ACP_KIT_DEMO_DELAY_MS: '0' },
    });
    writeFileSync(join(h.dirs.workspace, 'README.md'), '# Sample project\n');
    await h.waitFor(/Connected to .*: new session/, { timeoutMs: 60_000 });
    await h.submit('show me around');
    await h.waitFor(/Permission requested[\s\S]*Create ACP_DEMO\.md/);
    await h.answer('y');
    await h.waitFor(/Permission requested[\s\S]*\$ ls -la/);
    await h.answer('y');
    // The chain speaks v2 with the demo: its tour also starts a command in the background.
    await h.waitFor(/Permission requested[\s\S]*\$ for i in 1 2 3/);
    await h.answer('y');
    await h.waitFor(/Done\. I read README\.md/, { history: true });
    h.press('C-q');
    expect(await h.exitStatus()).toBe(0);

    // The UI stopped the chain before exiting, and the chain its proxy: the file is complete.
    const frames = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { dir: string; frame: Record<string, unknown> });
    const requests = frames.filter((f) => typeof f.frame.method === 'string' && f.frame.id !== undefined);
    expect(requests.map((f) => `${f.dir} ${String(f.frame.method)}`)).toEqual(
      expect.arrayContaining([
        'out initialize',
        'out session/new',
        'out session/prompt',
        'in session/request_permission',
      ]),
    );
    // Every request has its answer, in the other direction, under its id.
    for (const request of requests) {
      const back = request.dir === 'out' ? 'in' : 'out';
      const answered = frames.some(
        (f) => f.dir === back && f.frame.id === request.frame.id && f.frame.method === undefined,
      );
      expect(answered, `${request.dir} ${String(request.frame.method)} #${String(request.frame.id)}`).toBe(
        true,
      );
    }
    const prompt = requests.find((f) => f.frame.method === 'session/prompt');
    expect(
      frames.find((f) => f.dir === 'in' && f.frame.id === prompt?.frame.id && f.frame.method === undefined)
        ?.frame,
    ).toHaveProperty('result');
    // In v2 the prompt's answer only acknowledges it: the turn ends with the idle state and its reason.
    expect(
      frames.some(
        (f) =>
          f.frame.method === 'session/update' && JSON.stringify(f.frame).includes('"stopReason":"end_turn"'),
      ),
    ).toBe(true);
    expect(frames.filter((f) => f.frame.method === 'session/update').length).toBeGreaterThan(10);
  }, 120_000);
});
