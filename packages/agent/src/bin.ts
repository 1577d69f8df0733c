/**
 * A minimal runnable entry for development and end-to-end tests (`acp agent` is the real one):
 *   node --conditions=@acp-kit/source --import tsx packages/agent/src/bin.ts --demo
 *   node --conditions=@acp-kit/source --import tsx packages/agent/src/bin.ts setup
 */
import { parseArgs } from 'node:util';
import { runAgent, runAgentSetup, type AgentCliOptions } from './cli-entry.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'api-key-stdin': { type: 'boolean' },
    demo: { type: 'boolean' },
    provider: { type: 'string' },
    model: { type: 'string' },
    'base-url': { type: 'string' },
    'api-key-env': { type: 'string' },
    config: { type: 'string' },
    'data-dir': { type: 'string' },
    'max-steps': { type: 'string' },
    'context-window': { type: 'string' },
    'demo-delay': { type: 'string' },
    'log-level': { type: 'string' },
  },
});

const number = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Number(value);

const options: AgentCliOptions = {
  demo: values.demo,
  provider: values.provider,
  model: values.model,
  baseUrl: values['base-url'],
  apiKeyEnv: values['api-key-env'],
  config: values.config,
  dataDir: values['data-dir'],
  maxSteps: number(values['max-steps']),
  contextWindow: number(values['context-window']),
  demoDelay: number(values['demo-delay']),
  logLevel: values['log-level'],
};

if (positionals.length > 0 && positionals[0] !== 'setup') {
  process.stderr.write(`acp-kit agent: unknown command ${positionals[0]}\n`);
  process.exit(2);
}

(positionals[0] === 'setup'
  ? runAgentSetup({ ...options, apiKeyStdin: values['api-key-stdin'] })
  : runAgent(options).then(() => 0)
).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`acp-kit agent: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
