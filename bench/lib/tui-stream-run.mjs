/**
 * One streamed answer in the terminal UI (`acp` in tmux, the scripted agent's `stream N RATE
 * [BYTES]`), measured from inside (the UI's metrics) and from outside (`capture-pane` samples, the
 * raw output tmux received). Shared by `bench/tui-stream.mjs` (tables) and `bench/stream.mjs` (the
 * suite judged against the bare reader).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TuiRun } from '../tui-common.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether the scrollback holds the whole answer once: every `wordN` of the stream exactly once,
 * in order (the message is printed block by block while it streams; nothing lost or repeated).
 */
export function answerComplete(history, count) {
  const seen = [...history.matchAll(/\bword(\d+)\b/g)].map((m) => Number(m[1]));
  const expected = [];
  for (let i = 1; i < count; i++) if (i % 10 !== 0) expected.push(i);
  return JSON.stringify(seen) === JSON.stringify(expected)
    ? 'complete'
    : `${seen.length} of ${expected.length} words`;
}

/** Problems with the bottom of one screen sample (empty when the status area is intact). */
export function statusProblems(screen) {
  const lines = screen.split('\n');
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  const problems = [];
  const count = (re) => lines.filter((line) => re.test(line)).length;
  const tabs = count(/^ 1 Scenario( agent)? {2}[●◐]$/);
  const status = count(/^● connected │ Scenario agent 1\.0 │ Ask/);
  const hint = count(/(Esc cancel · Ctrl\+X menu|Ctrl\+X menu · \? keys · Ctrl\+N new tab)$/);
  if (tabs !== 1) problems.push(`tab bar ×${tabs}`);
  if (status !== 1) problems.push(`status line ×${status}`);
  if (hint !== 1) problems.push(`hint line ×${hint}`);
  const tail = lines.slice(-3);
  if (!/^ 1 Scenario/.test(tail[0] ?? '') || !/^● connected/.test(tail[1] ?? ''))
    problems.push(`status area not at the bottom: ${JSON.stringify(tail)}`);
  return problems;
}

/**
 * CPU per 1,000 chunks while the first and the last tenth of the stream arrived, from the UI's
 * progress samples `[ms, cpuMs, updates]` (the prompt's own updates are a handful).
 */
export function perThousand(progress, chunks) {
  const at = (count) => progress.find((sample) => sample[2] >= count);
  const rate = (from, to) => {
    const a = at(from);
    const b = at(to);
    return a && b && b[2] > a[2] ? Math.round(((b[1] - a[1]) / (b[2] - a[2])) * 1000 * 10) / 10 : NaN;
  };
  return {
    cpuPer1kFirstTenth: rate(1, chunks / 10),
    cpuPer1kLastTenth: rate((chunks * 9) / 10, chunks),
  };
}

/**
 * Streams `chunks` chunks at `rate` per second (0: as fast as the pipe takes them) into a fresh
 * UI and returns its figures once everything is drawn (the screen unchanged for 4 samples).
 * `sampleLoop: false` turns off the UI's event-loop delay sampling (a timer every 5 ms, which
 * would be most of the wakeups of a paced stream): for measurements of CPU. `sampleProgress:
 * false` turns off its progress samples (a timer every 250 ms, as often as a paced stream's
 * frames), which only the CPU per thousand chunks needs.
 */
export async function streamInUi({
  chunks,
  rate,
  chunkBytes = 0,
  program,
  sampleLoop = true,
  sampleProgress = true,
}) {
  const dirs = TuiRun.makeDirs();
  const rawLog = join(dirs.root, 'raw.log');
  const run = new TuiRun({
    dirs,
    args: ['--agent', 'scenario'],
    rawLog,
    historyLimit: Math.max(100_000, chunks * (chunkBytes > 0 ? 3 : 1)),
    env: {
      ...(sampleLoop ? {} : { ACP_KIT_TUI_METRICS_LOOP: 'off' }),
      ...(sampleProgress ? {} : { ACP_KIT_TUI_METRICS_PROGRESS: 'off' }),
    },
    ...(program ? { program } : {}),
  });
  try {
    await run.waitFor(
      (screen) => screen.includes('● connected') && screen.includes('Message · / for commands'),
    );
    const before = readFileSync(rawLog, 'utf8').length;
    run.type(`stream ${chunks} ${rate}${chunkBytes > 0 ? ` ${chunkBytes}` : ''}`);
    await run.waitFor(`stream ${chunks}`);
    run.press('Enter');
    const started = Date.now();
    const samples = [];
    const bad = [];
    let idleSeen = 0;
    // Sample until the turn ended and the screen stopped changing (everything drawn).
    let last = '';
    for (;;) {
      await sleep(50);
      const screen = run.screen();
      samples.push(screen);
      const problems = statusProblems(screen);
      if (problems.length > 0) bad.push({ at: Date.now() - started, problems });
      const done = screen.includes('Message · / for commands') && screen === last;
      idleSeen = done ? idleSeen + 1 : 0;
      if (idleSeen >= 4) break;
      if (Date.now() - started > 300_000 + (rate > 0 ? (chunks / rate) * 1000 : chunks * 2))
        throw new Error('the stream did not finish');
      last = screen;
    }
    const wall = Date.now() - started;
    const after = readFileSync(rawLog, 'utf8').slice(before);
    const clears = after.split('\x1b[2J').length - 1;
    const answer = answerComplete(run.history(), chunks);
    const metrics = await run.quit();
    return {
      ...perThousand(metrics.progress ?? [], chunks),
      rate,
      wallMs: wall,
      clears,
      samples: samples.length,
      tornSamples: bad.length,
      answer,
      firstProblems: bad.slice(0, 3),
      loopP99: metrics.eventLoopDelayMs?.p99,
      loopMax: metrics.eventLoopDelayMs?.max,
      cpuMs: metrics.cpuSinceFirstPromptMs,
      cpuUserMs: metrics.cpuSinceFirstPrompt?.user,
      cpuSystemMs: metrics.cpuSinceFirstPrompt?.system,
      turnMs: metrics.marks['turn-end'] - metrics.marks['first-prompt'],
      frames: metrics.renderMs.frames,
      renderP99: metrics.renderMs.p99,
      renderMax: metrics.renderMs.max,
      renderP50: metrics.renderMs.p50,
      bytesWritten: metrics.bytesWritten,
      writes: metrics.writes,
      rssMb: metrics.maxRssMb,
      rssAtQuitMb: metrics.rssAtQuitMb,
      memoryAtQuitMb: metrics.memoryAtQuitMb,
      renders: metrics.renders,
      // Milliseconds since the UI's start (to cut a `--cpu-prof` profile to the stream).
      marks: metrics.marks,
    };
  } finally {
    run.close();
    rmSync(dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}
