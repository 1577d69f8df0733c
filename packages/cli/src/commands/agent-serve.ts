/**
 * What `acp agent` and `acp agent setup` run, imported only by its action. A module of its own because importing the
 * `@acp-kit/agent` entry as a whole (`import('@acp-kit/agent')`) would make the bundler load the
 * agent with every `acp` start (scripts/bundle.test.ts checks that it does not).
 */
export { runAgent, runAgentSetup } from '@acp-kit/agent';
