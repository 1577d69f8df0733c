/**
 * A minimal runnable entry for development and end-to-end tests (`acp agent` is the real one):
 *   node --conditions=@acp-kit/source --import tsx packages/agent/src/bin.ts --demo
 */
import { parseArgs } from 'node:util';
import { runAgent, type AgentCliOptions } from './cli-entry.js';

const { values } = parseArgs({
  options: {
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

runAgent(options).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`acp-kit agent: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
