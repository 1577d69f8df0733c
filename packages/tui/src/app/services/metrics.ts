/**
 * Optional measurements for benchmarks (`ACP_KIT_TUI_METRICS_FILE=<file>`, formerly `ACP_KIT_TUI_METRICS`): time to the first frame and
 * to named milestones, keystroke-to-output latency, event-loop delay, CPU, peak RSS, and screen
 * clears. Written as JSON to the file when the UI exits; nothing is measured otherwise.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';

const CLEAR_SCREEN = '\x1b[2J';
/** Sampling interval of the event-loop delay histogram; each sample includes it, so it is subtracted. */
const LOOP_RESOLUTION_MS = 5;

/** What the metrics file contains. */
export interface TuiMetricsReport {
  /** Milliseconds since process start. */
  readonly firstFrameMs?: number;
  readonly marks: Readonly<Record<string, number>>;
  /** CPU used between the first prompt and the end of the first turn (the streaming measurement). */
  readonly firstTurnCpuMs?: { readonly user: number; readonly system: number };
  /** Input chunk → next write to the terminal, in ms, in order. */
  readonly keyLatenciesMs: readonly number[];
  /**
   * Event-loop delay since the first prompt (or the whole run when no prompt was sent): how late
   * a timer due every 5 ms ran. Absent when not sampled (`ACP_KIT_TUI_METRICS_LOOP=off`).
   */
  readonly eventLoopDelayMs?: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly cpuMs: { readonly user: number; readonly system: number };
  /** CPU from the first prompt to the exit (the turn and drawing all of it). */
  readonly cpuSinceFirstPromptMs?: number;
  /** The same, user and system time apart (system: the kernel's work for our reads, writes and timers). */
  readonly cpuSinceFirstPrompt?: { readonly user: number; readonly system: number };
  readonly maxRssMb: number;
  /** Resident memory when the user quit (what a long answer leaves behind once drawn). */
  readonly rssAtQuitMb?: number;
  /**
   * What the resident memory at quit is made of, in MiB (`process.memoryUsage()`): V8's heap as
   * reserved and as used (live objects and garbage not collected yet), and memory outside it
   * (buffers, WebAssembly such as yoga's).
   */
  readonly memoryAtQuitMb?: {
    readonly heapTotal: number;
    readonly heapUsed: number;
    readonly external: number;
    readonly arrayBuffers: number;
  };
  /** Writes that cleared the screen, and how many of them were reprints the app asked for. */
  readonly screenClears: number;
  readonly reprints: number;
  readonly bytesWritten: number;
  readonly writes: number;
  /**
   * Time Ink took to build frames (ms): count, p50, p99, max; since the first prompt (or the
   * whole run when no prompt was sent).
   */
  readonly renderMs: {
    readonly frames: number;
    readonly p50: number;
    readonly p99: number;
    readonly max: number;
  };
  /** Largest single write to the terminal (characters). */
  readonly largestWrite: number;
  /** Renders per component since the first prompt (see {@link countRender}). */
  readonly renders: Readonly<Record<string, number>>;
  /**
   * The first turn's progress, sampled every {@link PROGRESS_SAMPLE_MS} from the first prompt until
   * everything is drawn: `[ms since the prompt, CPU ms since the prompt, session updates received]`
   * (benchmarks: the CPU per thousand chunks early and late in a long answer).
   */
  readonly progress: readonly (readonly [number, number, number])[];
}

/** Interval of the progress samples. */
export const PROGRESS_SAMPLE_MS = 250;

/** Renders per component since the first prompt, while metrics are collected. */
let renderCounts: Map<string, number> | undefined;

/**
 * Counts a render of `component` when metrics are collected (benchmarks: what redraws while a
 * stream arrives); does nothing otherwise.
 *
 * @example
 * countRender('StatusArea');
 */
export function countRender(component: string): void {
  if (renderCounts) renderCounts.set(component, (renderCounts.get(component) ?? 0) + 1);
}

const mebibytes = (bytes: number): number => Math.round(bytes / 2 ** 20);

/** The report's figures for the memory at quit. */
function memoryReport(memory: NodeJS.MemoryUsage): Pick<TuiMetricsReport, 'rssAtQuitMb' | 'memoryAtQuitMb'> {
  return {
    rssAtQuitMb: mebibytes(memory.rss),
    memoryAtQuitMb: {
      heapTotal: mebibytes(memory.heapTotal),
      heapUsed: mebibytes(memory.heapUsed),
      external: mebibytes(memory.external),
      arrayBuffers: mebibytes(memory.arrayBuffers),
    },
  };
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Collects metrics for one run. */
export class TuiMetrics {
  private firstFrameMs: number | undefined;
  private readonly marks: Record<string, number> = {};
  private readonly latencies: number[] = [];
  private pendingInput: number | undefined;
  /** Undefined when the event-loop delay is not sampled. */
  private readonly histogram: IntervalHistogram | undefined;
  private clears = 0;
  private reprints = 0;
  private bytes = 0;
  private writes = 0;
  private readonly renderTimes: number[] = [];
  private readonly writeSizes: number[] = [];
  private cpuAtPrompt: NodeJS.CpuUsage | undefined;
  private firstTurnCpu: NodeJS.CpuUsage | undefined;
  private readonly progress: [number, number, number][] = [];
  private progressTimer: ReturnType<typeof setInterval> | undefined;
  private memoryAtQuit: NodeJS.MemoryUsage | undefined;

  /**
   * `sampleLoop`: whether to sample the event-loop delay. Its timer wakes the process every 5 ms
   * (200 times a second, more than a streamed answer does), so a measurement of CPU turns it off.
   * `sampleProgress`: whether to sample the first turn's progress ({@link sampleProgress}); its
   * timer wakes the process 4 times a second, as often as a paced stream's frames, so a
   * measurement of a paced stream's CPU turns it off too.
   */
  constructor(
    private readonly file: string,
    sampleLoop = true,
    private readonly sampleProgressToo = true,
  ) {
    if (sampleLoop) {
      this.histogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
      this.histogram.enable();
    }
    renderCounts = new Map();
  }

  /** Metrics from the environment, or undefined when not asked for. */
  static fromEnv(env: NodeJS.ProcessEnv): TuiMetrics | undefined {
    const file = env.ACP_KIT_TUI_METRICS_FILE || env.ACP_KIT_TUI_METRICS;
    return file
      ? new TuiMetrics(
          file,
          env.ACP_KIT_TUI_METRICS_LOOP !== 'off',
          env.ACP_KIT_TUI_METRICS_PROGRESS !== 'off',
        )
      : undefined;
  }

  /** Ink rendered a frame (`renderTime`: building the frame, before writing it). */
  frameRendered(renderTime = 0): void {
    this.renderTimes.push(renderTime);
    this.firstFrameMs ??= performance.now();
    if (this.marks['session-shown'] !== undefined) this.mark('session-drawn');
  }

  /**
   * Records the first time a milestone is reached. `first-prompt` also starts the streaming
   * window (CPU, event-loop delay); `turn-end` closes its CPU measurement.
   */
  mark(name: string): void {
    if (this.marks[name] !== undefined) return;
    this.marks[name] = performance.now();
    if (name === 'first-prompt') {
      this.cpuAtPrompt = process.cpuUsage();
      this.histogram?.reset();
      renderCounts?.clear();
      this.renderTimes.length = 0;
    } else if (name === 'quit') {
      // Closing agents and the last frame are not part of what was measured.
      this.histogram?.disable();
      clearInterval(this.progressTimer);
      this.memoryAtQuit = process.memoryUsage();
    } else if (name === 'turn-end' && this.cpuAtPrompt) {
      this.firstTurnCpu = process.cpuUsage(this.cpuAtPrompt);
    }
  }

  /**
   * Samples the CPU and `updates()` (the session's update count) from the first prompt on, until
   * the UI quits; the first call wins.
   */
  sampleProgress(updates: () => number): void {
    if (!this.sampleProgressToo || this.progressTimer || !this.cpuAtPrompt) return;
    const start = performance.now();
    const sample = (): void => {
      const cpu = process.cpuUsage(this.cpuAtPrompt);
      this.progress.push([
        Math.round(performance.now() - start),
        Math.round((cpu.user + cpu.system) / 1000),
        updates(),
      ]);
    };
    sample();
    this.progressTimer = setInterval(sample, PROGRESS_SAMPLE_MS);
    this.progressTimer.unref();
  }

  inputArrived(at: number): void {
    this.pendingInput ??= at;
  }

  reprinted(): void {
    this.reprints++;
  }

  /** Wraps the terminal's `write` to see what the UI writes. */
  watch(stdout: NodeJS.WriteStream): void {
    const write = stdout.write.bind(stdout) as (...args: unknown[]) => boolean;
    const watched = (...args: unknown[]): boolean => {
      const chunk = args[0];
      const text =
        typeof chunk === 'string'
          ? chunk
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk).toString('utf8')
            : '';
      this.writes++;
      this.bytes += text.length;
      this.writeSizes.push(text.length);
      if (text.includes(CLEAR_SCREEN)) this.clears++;
      if (this.pendingInput !== undefined && text !== '') {
        this.latencies.push(performance.now() - this.pendingInput);
        this.pendingInput = undefined;
      }
      return write(...args);
    };
    stdout.write = watched as typeof stdout.write;
  }

  report(): TuiMetricsReport {
    const ms = (ns: number): number => Math.max(0, Math.round(ns / 1e4) / 100 - LOOP_RESOLUTION_MS);
    const cpu = process.cpuUsage();
    const sincePrompt = this.cpuAtPrompt ? process.cpuUsage(this.cpuAtPrompt) : undefined;
    return {
      ...(this.firstFrameMs !== undefined ? { firstFrameMs: Math.round(this.firstFrameMs) } : {}),
      marks: Object.fromEntries(Object.entries(this.marks).map(([k, v]) => [k, Math.round(v)])),
      ...(this.firstTurnCpu
        ? {
            firstTurnCpuMs: {
              user: Math.round(this.firstTurnCpu.user / 1000),
              system: Math.round(this.firstTurnCpu.system / 1000),
            },
          }
        : {}),
      keyLatenciesMs: this.latencies.map((v) => Math.round(v * 100) / 100),
      ...(this.histogram
        ? {
            eventLoopDelayMs: {
              p50: ms(this.histogram.percentile(50)),
              p99: ms(this.histogram.percentile(99)),
              max: ms(this.histogram.max),
            },
          }
        : {}),
      cpuMs: { user: Math.round(cpu.user / 1000), system: Math.round(cpu.system / 1000) },
      ...(sincePrompt
        ? {
            cpuSinceFirstPromptMs: Math.round((sincePrompt.user + sincePrompt.system) / 1000),
            cpuSinceFirstPrompt: {
              user: Math.round(sincePrompt.user / 1000),
              system: Math.round(sincePrompt.system / 1000),
            },
          }
        : {}),
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      ...(this.memoryAtQuit ? memoryReport(this.memoryAtQuit) : {}),
      screenClears: this.clears,
      reprints: this.reprints,
      bytesWritten: this.bytes,
      writes: this.writes,
      renderMs: {
        frames: this.renderTimes.length,
        p50: Math.round(percentile(this.renderTimes, 50) * 100) / 100,
        p99: Math.round(percentile(this.renderTimes, 99) * 100) / 100,
        max: Math.round(Math.max(0, ...this.renderTimes) * 100) / 100,
      },
      largestWrite: Math.max(0, ...this.writeSizes),
      renders: Object.fromEntries(renderCounts ?? []),
      progress: this.progress,
    };
  }

  /** Writes the report to the file. */
  save(): void {
    this.histogram?.disable();
    clearInterval(this.progressTimer);
    writeFileSync(this.file, `${JSON.stringify(this.report(), null, 2)}\n`);
  }
}
