/**
 * The streaming floor: a bare Node process that reads a streamed answer from the scripted agent
 * over a pipe and does what any reader of it must, nothing else: decode the bytes, split the
 * lines, `JSON.parse` each. No acp-kit code, no read pacing, no validation, no output.
 *
 * `node bench/lib/bare-stream-reader.mjs CHUNKS RATE [BYTES] [loop]` prints one JSON line: the CPU
 * time (user + system, this process only) from sending the prompt until its response arrived, the
 * wall time, and how many updates were parsed. With `loop`, also its event-loop delay p99
 * meanwhile, sampled every 5 ms like the UI's (what the machine's load alone makes a nearly idle
 * process wait); that timer's wakeups then cost more than the reading, so CPU is measured without.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { SCENARIO_AGENT } from './tui-paths.mjs';

const [chunks, rate, bytes] = process.argv.slice(2, 5).map(Number);
const sampleLoop = process.argv[5] === 'loop';
const cwd = mkdtempSync(join(os.tmpdir(), 'acp-bare-reader-'));
const agent = spawn(process.execPath, [SCENARIO_AGENT], { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
const send = (message) => agent.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const waiting = new Map();
const call = (id, method, params) =>
  new Promise((resolve) => {
    waiting.set(id, resolve);
    send({ id, method, params });
  });

let updates = 0;
let rest = '';
agent.stdout.setEncoding('utf8');
agent.stdout.on('data', (text) => {
  const lines = (rest + text).split('\n');
  rest = lines.pop() ?? '';
  for (const line of lines) {
    if (line === '') continue;
    const message = JSON.parse(line);
    if (message.method === 'session/update') updates++;
    else if (message.id !== undefined && waiting.has(message.id)) {
      waiting.get(message.id)(message.result);
      waiting.delete(message.id);
    }
  }
});

await call(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} });
const { sessionId } = await call(2, 'session/new', { cwd, mcpServers: [] });
const text = `stream ${chunks} ${rate}${bytes > 0 ? ` ${bytes}` : ''}`;
const loop = sampleLoop ? monitorEventLoopDelay({ resolution: 5 }) : undefined;
loop?.enable();
const cpuBefore = process.cpuUsage();
const started = performance.now();
await call(3, 'session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
const cpu = process.cpuUsage(cpuBefore);
const wallMs = performance.now() - started;
loop?.disable();
// As the UI reports it: the sampling interval is part of every sample.
const loopP99 = loop ? Math.max(0, loop.percentile(99) / 1e6 - 5) : undefined;
agent.stdin.end();
agent.kill();
rmSync(cwd, { recursive: true, force: true });
console.log(JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, wallMs, updates, loopP99 }));
