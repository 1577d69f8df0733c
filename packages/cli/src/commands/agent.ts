/**
 * `acp agent`: serves the acp-kit coding agent (or the demo agent) over ACP on stdin/stdout.
 * stdout carries protocol frames only; nothing else is printed there.
 */
import type { Command } from 'commander';
import { agentCliDescription, agentCliOptions, type AgentCliOptions } from '@acp-kit/agent/cli-options';

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
}
