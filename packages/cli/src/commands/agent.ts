/**
 * `acp agent`: serves the acp-kit coding agent (or the demo agent) over ACP on stdin/stdout.
 * stdout carries protocol frames only; nothing else is printed there.
 */
import type { Command } from 'commander';
import {
  agentCliDescription,
  agentCliOptions,
  agentSetupDescription,
  agentSetupHelp,
  agentSetupOptions,
  type AgentCliOptions,
  type AgentSetupOptions,
} from '@acp-kit/agent/cli-options';

/** Registers `acp agent` and its flags on `program`. */
export function registerAgentCommand(
  program: Command,
  check: () => void,
  done: (code: number) => void,
): void {
  const command = program.command('agent').description(agentCliDescription);
  for (const option of agentCliOptions) {
    if (option.parse) command.option(option.flags, option.description, option.parse);
    else command.option(option.flags, option.description);
  }
  command.action(async (options: AgentCliOptions) => {
    check();
    // The agent (tools, sessions, zod) loads only when `acp agent` runs.
    const { runAgent } = await import('./agent-serve.js');
    await runAgent(options);
    done(0);
  });
  // `acp agent setup` shares the flags of `acp agent` (commander hands them to the parent).
  const setup = command
    .command('setup')
    .description(agentSetupDescription)
    .addHelpText('after', agentSetupHelp);
  for (const option of agentSetupOptions) setup.option(option.flags, option.description);
  setup.action(async (_options: unknown, sub: Command) => {
    check();
    const { runAgentSetup } = await import('./agent-serve.js');
    done(await runAgentSetup(sub.optsWithGlobals<AgentSetupOptions>()));
  });
}
