/**
 * `acp replay`: a turn recorded by `acp run` against the demo agent, replayed to `acp run` as its
 * agent (real processes), drives it to the same output; a client that departs from the recording
 * is reported.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReplayReport } from '@acp-kit/check';
import { SELF, runCli, testHome, type TestHome } from './test-support/cli-harness.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
});
afterEach(async () => {
  await home.cleanup();
});

/** Records `acp run --agent demo PROMPT` and returns its output lines and its trace file. */
async function record(prompt: string): Promise<{ lines: string[]; trace: string }> {
  const first = await runCli(['run', '--agent', 'demo', '--format', 'json', prompt], home);
  expect(first.code, first.stderr).toBe(0);
  const sessions = join(home.env.ACP_KIT_DATA_DIR as string, 'client/sessions');
  const [dir] = await readdir(sessions);
  return { lines: first.stdout.trim().split('\n'), trace: join(sessions, dir as string, 'trace.jsonl') };
}

/** `acp run PROMPT -- acp replay TRACE --report FILE`. */
async function replay(prompt: string, trace: string) {
  const reportFile = join(home.dir, 'report.json');
  const result = await runCli(
    [
      'run',
      '--format',
      'json',
      prompt,
      '--',
      SELF.command,
      ...SELF.args,
      'replay',
      trace,
      '--report',
      reportFile,
    ],
    home,
  );
  const report = JSON.parse(await readFile(reportFile, 'utf8')) as ReplayReport;
  return { ...result, lines: result.stdout.trim().split('\n'), report };
}

/** Output lines without what differs from run to run (the local session id, timestamps). */
function stable(lines: readonly string[]): string[] {
  return lines.map((line) => line.replace(/"(localId|updatedAt|agent)":"[^"]*"/g, ''));
}

describe('acp replay', () => {
  it('replays a recorded demo turn to acp run: the same output, and the client followed the recording', async () => {
    const { lines, trace } = await record('hello');
    expect(lines.length).toBeGreaterThan(20);
    const replayed = await replay('hello', trace);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(stable(replayed.lines)).toEqual(stable(lines));
    expect(replayed.report).toMatchObject({ divergences: [], missing: [], paramNotes: [] });
    expect(replayed.report.matched).toBe(replayed.report.expected);
  });

  it('reports params that differ from the recording (another prompt)', async () => {
    const { trace } = await record('hello');
    const replayed = await replay('goodbye', trace);
    expect(replayed.report.divergences).toEqual([]);
    expect(replayed.report.paramNotes).toEqual([
      expect.stringMatching(/session\/prompt: params\.prompt\[0\]\.text$/),
    ]);
  });

  it('answers a request the recording does not hold with an error, and reports where the client left it', async () => {
    const { trace } = await record('hello');
    // The recording up to the session's creation: the prompt is more than it holds.
    const text = await readFile(trace, 'utf8');
    const kept = text.split('\n').filter((line) => line !== '');
    const cut = kept.findIndex((line) => line.includes('"method":"session/prompt"'));
    const shortTrace = join(home.dir, 'short.jsonl');
    await writeFile(shortTrace, `${kept.slice(0, cut).join('\n')}\n`);
    const replayed = await replay('hello', shortTrace);
    expect(replayed.code).not.toBe(0);
    expect(replayed.stdout).toContain('acp replay: the client left the recording (expected nothing more)');
    // The prompt, then the session/close that ends every acp run: neither is in the recording.
    expect(replayed.report.divergences.map((d) => [d.expected, d.got.split(' {')[0]])).toEqual([
      ['nothing more (the recording ended)', 'request session/prompt'],
      ['nothing more (the recording ended)', 'request session/close'],
    ]);
  });
});
