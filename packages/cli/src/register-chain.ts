/**
 * Registers `acp chain` and `acp proxy trace` (proxy chains). Their implementations load
 * only when they run, like every command's.
 */
import type { Command } from 'commander';
import type { ChainOptions } from './commands/chain.js';
import * as help from './help-text.js';
import type { CliIo } from './io.js';
import { rejectUnknownSubcommands } from './unknown-command.js';

export function registerChain(
  program: Command,
  tail: readonly string[] | undefined,
  noTail: () => void,
  done: (code: number) => void,
  io: CliIo,
): void {
  program
    .command('chain')
    .description(
      'Serve proxies in front of an agent as one agent on stdin/stdout: acp chain [--trace FILE] [--rules] -- PROXY… -- AGENT (unstable protocol)',
    )
    .option(
      '--trace <file>',
      "record the chain's traffic, secrets redacted, to this file (next to the agent)",
    )
    .option(
      '--rules',
      'answer permission questions your saved rules decide (acp rules) before they reach the client',
    )
    .addHelpText('after', help.CHAIN_HELP)
    .action(async (options: ChainOptions) => {
      const { chainCommand } = await import('./commands/chain.js');
      done(await chainCommand(tail, options, io));
    });

  const proxy = rejectUnknownSubcommands(
    program
      .command('proxy')
      .description('Built-in proxies for acp chain (or any conductor), on stdin/stdout')
      .addHelpText('after', help.PROXY_HELP),
  );
  proxy
    .command('trace')
    .description('Record every message between client and agent, secrets redacted, to a trace file')
    .requiredOption('--out <file>', 'the trace file (appended to; created private)')
    .addHelpText('after', help.PROXY_TRACE_HELP)
    .action(async (options: { out: string }) => {
      noTail();
      const { traceProxyCommand } = await import('./commands/proxy.js');
      done(await traceProxyCommand(options.out, io));
    });
  registerRulesProxy(proxy, noTail, done, io);
}

function registerRulesProxy(
  proxy: Command,
  noTail: () => void,
  done: (code: number) => void,
  io: CliIo,
): void {
  proxy
    .command('rules')
    .description('Answer the permission questions your saved rules decide; pass on the rest')
    .option(
      '--agent <name>',
      "the agent's catalog name, for rules limited to one agent (default: its agentInfo name)",
    )
    .addHelpText('after', help.PROXY_RULES_HELP)
    .action(async (options: { agent?: string }) => {
      noTail();
      const { rulesProxyCommand } = await import('./commands/proxy.js');
      done(await rulesProxyCommand(options, io));
    });
}
