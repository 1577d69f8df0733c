/**
 * `acp rules [list|add|remove]`: the saved permission rules (`rules.json` in the config dir).
 */
import { resolve } from 'node:path';
import {
  ClientError,
  RuleStore,
  resolveClientPaths,
  type EnvValues,
  type PermissionRule,
  type RuleAction,
  ruleEnvText,
  visiblePath,
  visibleText,
} from '@acp-kit/client';
import { UsageError } from '../exit-codes.js';
import { table } from '../format.js';
import type { CliIo } from '../io.js';
import type { OutputFormat } from '../output-format.js';

async function load(io: CliIo): Promise<RuleStore> {
  return RuleStore.load(resolveClientPaths(io.env).rulesFile);
}

/** `acp rules list [--format text|json]`. */
export async function listRules(options: { format: OutputFormat }, io: CliIo): Promise<number> {
  const store = await load(io);
  if (options.format === 'json') {
    io.stdout.write(`${JSON.stringify(store.rules)}\n`);
    return 0;
  }
  if (store.rules.length === 0) {
    io.stderr.write(`no saved rules (${store.file})\n`);
    return 0;
  }
  const rows = store.rules.map((r) => [
    r.id,
    r.action,
    r.project ? `project ${r.project}` : 'always',
    r.agent ?? '*',
    r.kinds?.join(',') ?? '*',
    // A remembered rule holds the agent's command as it was: invisible characters shown as escapes.
    r.path ? visiblePath(r.path) : '-',
    r.command ? `${visibleText(r.command)}${r.exact ? '' : ' …'}` : '-',
    envText(r.env),
  ]);
  io.stdout.write(table([['ID', 'ACTION', 'SCOPE', 'AGENT', 'KINDS', 'PATH', 'COMMAND', 'ENV'], ...rows]));
  return 0;
}

/** A rule's `env` in one cell: `NAME=VALUE`, `NAME=V1|V2`, `NAME=*` (any value). */
function envText(env: PermissionRule['env']): string {
  if (!env) return '-';
  return ruleEnvText(env, { any: '*', or: '|' }).join(' ');
}

/**
 * `--env NAME` (any value) and `--env NAME=VALUE` (repeated: any of the values) as a rule's `env`.
 * A name given both ways allows any value.
 */
export function envOption(given: readonly string[]): Record<string, EnvValues> {
  const env: Record<string, EnvValues> = {};
  for (const item of given) {
    const at = item.indexOf('=');
    const name = at < 0 ? item : item.slice(0, at);
    const previous = Object.hasOwn(env, name) ? env[name] : undefined;
    let values: EnvValues;
    if (at < 0 || previous === true) values = true;
    else values = [...(previous === undefined ? [] : [previous].flat()), item.slice(at + 1)];
    Object.defineProperty(env, name, { value: values, enumerable: true, writable: true, configurable: true });
  }
  return env;
}

/** Options of `acp rules add`. */
export interface AddRuleOptions {
  allow?: boolean;
  deny?: boolean;
  ask?: boolean;
  agent?: string;
  kind?: string;
  path?: string;
  command?: string;
  exact?: boolean;
  env?: string[];
  project?: string | boolean;
  note?: string;
}

/** `acp rules add --allow|--deny|--ask [conditions]`. */
export async function addRule(options: AddRuleOptions, io: CliIo): Promise<number> {
  const actions = (['allow', 'deny', 'ask'] as const).filter((a) => options[a]);
  if (actions.length !== 1) throw new UsageError('give exactly one of --allow, --deny, --ask');
  const rule: Omit<PermissionRule, 'id' | 'createdAt'> = { action: actions[0] as RuleAction };
  if (options.agent) rule.agent = options.agent;
  if (options.kind)
    rule.kinds = options.kind
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
  if (options.path) rule.path = options.path;
  if (options.command) rule.command = options.command;
  if (options.exact) rule.exact = true;
  if (options.env && options.env.length > 0) rule.env = envOption(options.env);
  if (options.project) rule.project = resolve(io.cwd, options.project === true ? '.' : options.project);
  if (options.note) rule.note = options.note;
  const store = await load(io);
  try {
    const added = await store.add(rule);
    io.stderr.write(`added rule ${added.id}\n`);
    io.stdout.write(`${added.id}\n`);
    return 0;
  } catch (error) {
    if (error instanceof ClientError && error.code === 'CONFIG_INVALID')
      throw new UsageError(error.message.replace(/^new rule: /, ''));
    throw error;
  }
}

/** `acp rules remove ID`. */
export async function removeRule(id: string, io: CliIo): Promise<number> {
  const store = await load(io);
  const removed = await store.remove(id);
  if (!removed)
    throw new UsageError(`no rule matches ${id}`, { hint: '`acp rules list` shows the rules and their ids' });
  io.stderr.write(`removed rule ${removed.id}\n`);
  return 0;
}
