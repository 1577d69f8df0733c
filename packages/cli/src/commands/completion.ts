/**
 * `acp completion bash|zsh|fish`: shell completion generated from the commander tree itself, so it
 * cannot drift from the commands. Every script carries the same tables (commands, options, which
 * options take which values) and finds the command being typed the same way: it walks the words,
 * skipping options and their values. Agent names come from `acp agents list --format names`.
 */
import type { Command, Option } from 'commander';

/** The shells `acp completion` supports. */
export type CompletionShell = 'bash' | 'zsh' | 'fish';

/** What an option's value (or a command's argument) completes to. */
export type CompletionValue =
  | { readonly kind: 'none' }
  | { readonly kind: 'any' }
  | { readonly kind: 'agents' }
  | { readonly kind: 'files' }
  | { readonly kind: 'dirs' }
  | { readonly kind: 'choices'; readonly choices: readonly string[] };

/** One option as completion sees it. */
export interface CompletionOption {
  /** `--agent`, `-h`… */
  readonly names: readonly string[];
  readonly description: string;
  /** `none` for flags without a value. */
  readonly value: CompletionValue;
}

/** One command (the root is the empty path). */
export interface CompletionCommand {
  /** Command words after `acp`, e.g. `['sessions', 'show']`. */
  readonly path: readonly string[];
  readonly subcommands: readonly { readonly name: string; readonly description: string }[];
  readonly options: readonly CompletionOption[];
  /** What its first argument completes to. */
  readonly argument: CompletionValue;
}

function optionValue(option: Option): CompletionValue {
  if (!option.required && !option.optional) return { kind: 'none' };
  if (option.argChoices) return { kind: 'choices', choices: option.argChoices };
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  const long = option.long ?? '';
  if (long === '--agent') return { kind: 'agents' };
  if (placeholder === 'dir' || /-dir$|^--cwd$|^--project$/.test(long)) return { kind: 'dirs' };
  if (/^(file|path|source)$/.test(placeholder)) return { kind: 'files' };
  return { kind: 'any' };
}

/**
 * Every command of `program` with its subcommands, options and argument values.
 *
 * @example
 * completionTree(program).find((c) => c.path.join(' ') === 'run')?.options.map((o) => o.names[0]);
 */
export function completionTree(program: Command): CompletionCommand[] {
  const help = program.createHelp();
  const out: CompletionCommand[] = [];
  const visit = (command: Command, path: readonly string[]): void => {
    const subcommands = help.visibleCommands(command);
    const argument = command.registeredArguments[0];
    out.push({
      path,
      subcommands: subcommands.map((sub) => ({
        name: sub.name(),
        description: sub.summary() || sub.description(),
      })),
      options: help.visibleOptions(command).map((option) => ({
        names: [option.long, option.short].filter((name): name is string => name !== undefined),
        description: option.description,
        value: optionValue(option),
      })),
      argument: argument?.argChoices
        ? { kind: 'choices', choices: argument.argChoices }
        : path.length === 0
          ? { kind: 'none' }
          : { kind: 'any' },
    });
    for (const sub of subcommands) if (sub.name() !== 'help') visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return out;
}

/** A word for a shell script in single quotes. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `kind[:choices]`, what the scripts' value table holds. */
function valueCode(value: CompletionValue): string {
  return value.kind === 'choices' ? `choices:${value.choices.join(' ')}` : value.kind;
}

/** The `sh`-syntax tables both bash and zsh use: `_acp_commands PATH`, `_acp_options PATH`, `_acp_value PATH OPTION`. */
function shTables(tree: readonly CompletionCommand[]): string {
  const cases = (rows: [string, string][]): string =>
    rows.map(([pattern, value]) => `    ${pattern}) echo ${quote(value)} ;;`).join('\n');
  const commands = cases(
    tree.map((c) => [
      quote(c.path.join(' ')),
      [...c.subcommands.map((s) => s.name), ...argumentWords(c)].join(' '),
    ]),
  );
  const options = cases(
    tree.map((c) => [quote(c.path.join(' ')), c.options.flatMap((o) => o.names).join(' ')]),
  );
  const values = cases(
    tree.flatMap((c) =>
      c.options
        .filter((o) => o.value.kind !== 'none')
        .map((o): [string, string] => [
          o.names.map((n) => quote(`${c.path.join(' ')}|${n}`)).join('|'),
          valueCode(o.value),
        ]),
    ),
  );
  return `_acp_commands() {
  case "$1" in
${commands}
  esac
}
_acp_options() {
  case "$1" in
${options}
  esac
}
_acp_value() {
  case "$1|$2" in
${values}
    *) echo none ;;
  esac
}
# Sets _acp_path (the command being typed) and _acp_pending (the option whose value is being typed)
# from the words before the cursor.
_acp_walk() {
  _acp_path=""
  _acp_pending=""
  local word
  for word in "$@"; do
    if [ "$word" = "--" ]; then _acp_path="--"; return; fi
    if [ -n "$_acp_pending" ]; then _acp_pending=""; continue; fi
    case "$word" in
      --*=*) ;;
      -*) [ "$(_acp_value "$_acp_path" "$word")" != none ] && _acp_pending="$word" ;;
      *) case " $(_acp_commands "$_acp_path") " in
           *" $word "*) _acp_path="\${_acp_path:+$_acp_path }$word" ;;
         esac ;;
    esac
  done
}`;
}

/** Fixed argument values of a command (`acp completion <shell>`). */
function argumentWords(command: CompletionCommand): string[] {
  return command.argument.kind === 'choices' ? [...command.argument.choices] : [];
}

function bashScript(tree: readonly CompletionCommand[]): string {
  return `# bash completion for acp, generated by \`acp completion bash\` from acp's own commands.
# Load it with: source <(acp completion bash)
${shTables(tree)}
_acp_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" kind option
  _acp_walk "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  [ "$_acp_path" = "--" ] && return 0
  option="$_acp_pending"
  if [ -z "$option" ] && [[ "$cur" == --*=* ]]; then option="\${cur%%=*}"; cur="\${cur#*=}"; fi
  if [ -n "$option" ]; then
    kind="$(_acp_value "$_acp_path" "$option")"
    case "$kind" in
      choices:*) COMPREPLY=($(compgen -W "\${kind#choices:}" -- "$cur")) ;;
      agents) COMPREPLY=($(compgen -W "$("\${COMP_WORDS[0]}" agents list --format names 2>/dev/null)" -- "$cur")) ;;
      files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
      dirs) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
      *) COMPREPLY=() ;;
    esac
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_acp_options "$_acp_path")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_acp_commands "$_acp_path")" -- "$cur"))
  fi
}
complete -o default -F _acp_complete acp
`;
}

function zshScript(tree: readonly CompletionCommand[]): string {
  return `#compdef acp
# zsh completion for acp, generated by \`acp completion zsh\` from acp's own commands.
# Install it as _acp in a directory of $fpath, or load it with: source <(acp completion zsh)
${shTables(tree)}
_acp() {
  local cur="\${words[CURRENT]}" kind option
  _acp_walk "\${(@)words[2,CURRENT-1]}"
  [[ "$_acp_path" == "--" ]] && return 1
  option="$_acp_pending"
  if [[ -z "$option" && "$cur" == --*=* ]]; then
    option="\${cur%%=*}"
    compset -P '*='
  fi
  if [[ -n "$option" ]]; then
    kind="$(_acp_value "$_acp_path" "$option")"
    case "$kind" in
      choices:*) compadd -- \${=kind#choices:} ;;
      agents) compadd -- \${(f)"$("\${words[1]}" agents list --format names 2>/dev/null)"} ;;
      files) _files ;;
      dirs) _files -/ ;;
    esac
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    compadd -- $(_acp_options "$_acp_path")
  else
    compadd -- $(_acp_commands "$_acp_path")
  fi
}
if [[ "\${funcstack[1]}" == "_acp" ]]; then _acp "$@"; else compdef _acp acp; fi
`;
}

/** Fish has its own syntax: one `complete` line per option and subcommand, conditioned on the command path. */
function fishScript(tree: readonly CompletionCommand[]): string {
  const fishQuote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const takesValue = tree.flatMap((c) =>
    c.options
      .filter((o) => o.value.kind !== 'none')
      .flatMap((o) => o.names.map((name) => fishQuote(`${c.path.join(' ')}|${name}`))),
  );
  const subcommands = tree
    .filter((c) => c.subcommands.length > 0)
    .map(
      (c) =>
        `    case ${fishQuote(c.path.join(' '))}\n      printf '%s\\n' ${c.subcommands.map((s) => fishQuote(s.name)).join(' ')}`,
    );
  const lines: string[] = [];
  for (const command of tree) {
    const when = `-n ${fishQuote(`__acp_at ${fishQuote(command.path.join(' '))}`)}`;
    for (const sub of command.subcommands)
      lines.push(`complete -c acp ${when} -f -a ${fishQuote(sub.name)} -d ${fishQuote(sub.description)}`);
    if (command.argument.kind === 'choices')
      lines.push(`complete -c acp ${when} -f -a ${fishQuote(command.argument.choices.join(' '))}`);
    for (const option of command.options) {
      const names = option.names
        .map((name) => (name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`))
        .join(' ');
      const value =
        option.value.kind === 'choices'
          ? `-x -a ${fishQuote(option.value.choices.join(' '))}`
          : option.value.kind === 'agents'
            ? `-x -a '(__acp_agents)'`
            : option.value.kind === 'files'
              ? '-r -F'
              : option.value.kind === 'dirs'
                ? `-x -a '(__fish_complete_directories)'`
                : option.value.kind === 'any'
                  ? '-x'
                  : '';
      lines.push(
        `complete -c acp ${when} ${names} ${value} -d ${fishQuote(option.description)}`.replace(/ +/g, ' '),
      );
    }
  }
  return `# fish completion for acp, generated by \`acp completion fish\` from acp's own commands.
# Install it as ~/.config/fish/completions/acp.fish
function __acp_subcommands
  switch $argv[1]
${subcommands.join('\n')}
  end
end
function __acp_takes_value
  contains -- "$argv[1]|$argv[2]" ${takesValue.join(' ')}
end
# The command being typed: the words before the cursor, options and their values skipped.
function __acp_path
  set -l path ''
  set -l pending 0
  set -l words (commandline -opc)
  set -e words[1]
  for word in $words
    if test "$word" = '--'
      echo -- '--'
      return
    end
    if test $pending = 1
      set pending 0
      continue
    end
    switch $word
      case '--*=*'
      case '-*'
        __acp_takes_value "$path" $word; and set pending 1
      case '*'
        if contains -- $word (__acp_subcommands "$path")
          set path (string trim -- "$path $word")
        end
    end
  end
  echo -- $path
end
function __acp_at
  set -l path (__acp_path)
  test "$path" = "$argv[1]"
end
function __acp_agents
  set -l program (commandline -opc)[1]
  $program agents list --format names 2>/dev/null
end
complete -c acp -f
${lines.join('\n')}
`;
}

/**
 * The completion script for `shell`.
 *
 * @example
 * process.stdout.write(completionScript(program, 'bash'));
 */
export function completionScript(program: Command, shell: CompletionShell): string {
  const tree = completionTree(program);
  if (shell === 'bash') return bashScript(tree);
  if (shell === 'zsh') return zshScript(tree);
  return fishScript(tree);
}
