/**
 * The longer `--help` texts of `acp`: what each command does beyond its one-line description, and
 * examples for every command. Plain text (no colours, no cursor movement).
 */

/** `Examples:` followed by `command  # what it does` lines, aligned. */
export function examples(lines: readonly (readonly [string, string])[]): string {
  const width = Math.max(...lines.map(([command]) => command.length));
  return `\nExamples:\n${lines.map(([command, what]) => `  ${command.padEnd(width)}  # ${what}`).join('\n')}`;
}

export const ROOT_HELP = `
Without a command, acp opens the terminal UI (on a dumb terminal, TERM=dumb, a plain line-mode
conversation instead). NO_COLOR turns colours off everywhere. Configuration files, data and
environment variables: docs/configuration.md; \`acp doctor\` shows where they are.
${examples([
  ['acp', 'the terminal UI: pick an agent'],
  ['acp --agent demo', 'a session with the model-free demo agent'],
  ['acp --agent claude --cwd ~/src/app', 'Claude, working in ~/src/app'],
  ['acp -- node my-agent.mjs --acp', 'any ACP agent given as a command'],
  ['acp --resume s-00mwrg', 'reopen a recorded session with its agent'],
  ['acp run --agent demo "hello"', 'one prompt, headless'],
  ['acp doctor', 'what to paste into a bug report'],
])}`;

export const RUN_HELP = `
The prompt is an argument, or piped in (echo "…" | acp run, acp run < prompt.txt); - reads stdin
whatever it is. With both, the argument is sent with the piped text attached as a second text
block (git diff | acp run "review this"). The agent is a catalog name (--agent, see \`acp agents\`)
or a command given after --; with --session and neither, the session's own agent.

MCP servers configured for acp (tui.json, mcpServers and agents.ID.mcpServers) are given to a new
session as acp gives them: over the ACP connection to agents that take that (acp agent, and so an
agent behind acp serve reached with --url, which then uses servers that run only here).

Permissions: nobody can answer a prompt, so what the policy does not allow is denied.
  --approve reads  (default) reads inside the working directory are allowed, the rest denied
  --approve all    everything the agent asks inside the working directory is allowed
  --approve none   every permission request is denied
Secret-looking files, paths outside the working directory, and commands setting environment
variables other than the few that only change how output looks (NO_COLOR, TERM, LANG, COLUMNS…)
are denied unless a rule names them. Saved rules (\`acp rules\`) and --policy FILE apply on top:
their deny rules always win, their allow rules apply except under --approve none. Requests the
agent sends after the turn has ended are refused.

Output: text puts the agent's message on stdout and tool calls, plans and permission decisions on
stderr (lines starting with ▸); errors are an "acp:" line and a "hint:" line. json prints one object
per line, one schema for ACP v1 and v2 agents (docs/run-json.md): {"type":"update","update":{"kind":…}}
for every change to the session, "permission" decisions, and a last {"type":"result","stopReason":…}
line. Neither contains colours or cursor
movement.

Exit codes: 0 end_turn, 1 other error, 2 bad usage, 3 refusal, 4 cancelled, 5 max_tokens or
max_turn_requests, 6 authentication required, 7 agent crashed, 8 agent unavailable (unknown, not
installed, failed to start); stopped by a signal: 130 SIGINT, 143 SIGTERM, 129 SIGHUP, 141 stdout
closed by its reader. Ctrl-C cancels the turn; a second one stops the agent. Any stop closes the
session and stops the agent and everything it started (stdin closed, SIGTERM, SIGKILL after 2 s
each); a second signal meanwhile skips the waiting. An agent that ignores the cancel for 10 s is
stopped the same way.
${examples([
  ['acp run --agent demo "hello"', 'one turn with the demo agent'],
  ['acp run --format json "summarise README.md" -- my-agent --acp', 'JSON lines, agent given as a command'],
  ['git diff | acp run --agent claude "review this diff"', 'the prompt, with the piped text attached'],
  ['acp run --agent claude < prompt.txt', 'the prompt from a file'],
  ['acp run --session s-00mwrg "and now the docs"', 'continue a recorded session with its agent'],
  ['acp run --agent codex --approve all --file notes.md "apply these notes"', 'attach a file, allow edits'],
])}`;

export const SERVE_HELP = `
Serves one agent as a remote ACP endpoint, /acp, speaking both profiles of the RFD "Streamable
HTTP & WebSocket Transport". Every remote connection gets its own agent process, started when the
client sends initialize and stopped when it leaves (its sessions are cancelled first); the agent's
stderr and exit are reported to that client. Files and terminals the agent asks the client for are
the client's: they are on the machine where acp --url runs, not here.

Listens on 127.0.0.1 unless --host says otherwise (0.0.0.0 or ::: every address; the connect:
line then shows this machine's address). Any other address requires a bearer token: the value of
ACP_KIT_SERVE_TOKEN, or one generated and printed at start. Put a TLS reverse proxy in front
for anything beyond a trusted network (docs/remote.md). Browsers are refused unless --allow-origin
names their origin. A client with a session whose connection drops has --resume-grace seconds to
resume it; one without a session is let go at once, and one that sends no initialize within
--handshake-timeout seconds is dropped. Past --max-connections, clients are answered 503 with
Retry-After: 5 (acp --url asks again, up to 3 times). Stops on Ctrl-C or SIGTERM (exit code 0),
closing every connection and stopping every agent.
${examples([
  ['acp serve --agent demo', 'the demo agent on http://127.0.0.1:8765/acp'],
  ['acp serve --agent acp-kit --port 9000', 'the acp-kit agent on port 9000'],
  [
    'ACP_KIT_SERVE_TOKEN=… acp serve --agent claude --host 0.0.0.0',
    'Claude for other machines (token required)',
  ],
  ['acp serve -- node my-agent.mjs --acp', 'any ACP agent given as a command'],
])}`;

export const SESSIONS_HELP = examples([
  ['acp sessions', 'the recorded sessions, newest first'],
  ['acp sessions show s-00mwrg', 'one transcript as text'],
  ['acp sessions list --format json', 'the index as JSON'],
  ['acp sessions list --agent claude', 'the sessions Claude itself lists (session/list)'],
  ['acp sessions delete s-00mwrg --remote', 'delete the record and the agent’s session'],
]);

export const SESSIONS_LIST_HELP = examples([
  ['acp sessions list', 'id, agent, turns, last update, title, directory (sessions with a turn)'],
  ['acp sessions list --all', 'also the sessions without a turn (the UI opened and closed)'],
  ['acp sessions list --json', 'the same as JSON'],
  ['acp sessions list --agent gemini --cwd ~/src/app', "Gemini's sessions for that directory"],
]);

export const SESSIONS_SHOW_HELP = examples([
  ['acp sessions show s-00mwrg', 'the transcript as text'],
  ['acp sessions show s-00 --format json', 'the meta and every recorded event (unique prefix)'],
]);

export const SESSIONS_DELETE_HELP = examples([
  ['acp sessions delete s-00mwrg', 'the local record (transcript and trace)'],
  ['acp sessions delete s-00mwrg --remote', 'also session/delete at the agent, when it can'],
]);

export const AGENTS_HELP = examples([
  ['acp agents', 'every agent, installed or not, and its command'],
  ['acp agents add mine --default -- my-agent --acp', 'add your own agent and make it the default'],
  ['acp agents remove mine', 'remove it again'],
]);

export const AGENTS_LIST_HELP = examples([
  ['acp agents list', 'a table'],
  ['acp agents list --json', 'every entry with its detection, as JSON'],
  ['acp agents list --format names', 'one name per line (what shell completion uses)'],
]);

export const AGENTS_ADD_HELP = examples([
  ['acp agents add mine -- my-agent --acp', 'an agent given by its command'],
  [
    'acp agents add local --env LOG=debug --cwd ~/agents -- node agent.mjs',
    'with an environment variable and a directory',
  ],
  ['acp agents add mine --pass-env OPENAI_API_KEY -- my-agent --acp', 'an agent that needs your OpenAI key'],
  [
    'acp agents add --registry https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json',
    'import every agent of a registry',
  ],
  ['acp agents add --registry registry.json some-id', 'import one entry of a registry file'],
]);

export const AGENTS_REMOVE_HELP = examples([['acp agents remove mine', 'built-in agents cannot be removed']]);

export const RULES_HELP = examples([
  ['acp rules', 'the saved rules'],
  ['acp rules add --allow --command "npm test" --project', 'allow `npm test` in this project'],
  ['acp rules remove 3f2a', 'remove a rule by unique id prefix'],
]);

export const RULES_LIST_HELP = examples([
  ['acp rules list', 'id, action, scope, agent, kinds, path, command (… = and longer), env'],
  ['acp rules list --json', 'the rules as JSON'],
]);

export const RULES_ADD_HELP = `
A command rule is a prefix: --command "git status" also covers "git status --short"; --exact
covers that command only (what allowing with "remember" in a question saves). A command setting an
environment variable beyond the built-in allow list (CI, NO_COLOR, FORCE_COLOR, CLICOLOR,
CLICOLOR_FORCE, COLORTERM, TERM, COLUMNS, LINES, LANG, LC_ALL, LC_CTYPE, LC_MESSAGES, PAGER=cat,
GIT_PAGER=cat) is covered by an allow rule only when the rule names it: --env NAME for any value,
--env NAME=VALUE for that value (repeat for more). HOME, GIT_DIR or MAKEFLAGS can make the command
run code of the agent's choice: name them only with values you know.
${examples([
  ['acp rules add --deny --kind execute --command "git push"', 'never let an agent push'],
  ['acp rules add --allow --kind edit --path "src/**" --project', 'edits under src/ of this project'],
  ['acp rules add --ask --agent codex --kind fetch', 'always ask before Codex fetches'],
  [
    'acp rules add --allow --command "npm test" --exact --env NODE_ENV=test',
    '`npm test`, NODE_ENV=test allowed',
  ],
])}`;

export const RULES_REMOVE_HELP = examples([['acp rules remove 3f2a9c', 'by id or unique id prefix']]);

export const DOCTOR_HELP = `
Prints Node and acp versions, where acp is installed, the configuration and data paths (and
whether they exist and are writable), which catalog agents are installed and appear signed in, and
what the terminal can do: the text to paste into a bug report. "Signed in" is a heuristic (known
credential files and environment variables, named in the output); --probe asks each installed agent
for real (initialize + session/new, a few seconds at most per agent). Secrets are never printed:
only the names of variables that are set. Exit code 1 when a check fails (Node too old, a
directory that is not writable, an invalid configuration file).
${examples([
  ['acp doctor', 'the report as text'],
  ['acp doctor --probe', 'also start each installed agent and open a session'],
  ['acp doctor --format json', 'the report as JSON'],
])}`;

export const CHECK_HELP = `
Drives an ACP agent through named conformance checks and prints each as PASS, FAIL, WARN or n/a,
with the rule it rests on (a link to the spec or the schema definition) and the evidence: the
offending frame, shortened, secrets and control characters removed. The agent runs in a scratch
directory (--cwd to choose one), once per protocol version checked. The turn checks send two short
prompts in v1 and one in v2, which a real agent pays for with model tokens; --offline runs only
the checks that need no model. Checks: handshake.v1 handshake.v2 capabilities.well-formed
auth.methods timing.initialize errors.unknown-method errors.unknown-notification
errors.invalid-params errors.before-initialize schema.strict capabilities.honoured rpc.request-ids
session.new session.list session.load session.resume session.close turn.prompt turn.tool-calls
turn.tool-call-ids timing.first-update cancel.stop-reason cancel.permission cancel.late-updates
v2.turn (docs/check.md explains each). --only/--skip take names or prefixes ending in a dot
(errors.), repeatable or comma-separated. Exit code 0 when no check failed, 1 when one did, 2 on
bad usage. NO_COLOR (or output that is not a terminal) turns colours off. With --client, acp check
is the agent: give it as the agent command of a client to check the client (report on stderr and
in --report FILE).
${examples([
  ['acp check --agent demo', 'check the built-in demo agent'],
  ['acp check --offline -- my-agent --acp', 'a command, without spending model tokens'],
  ['acp check --url http://127.0.0.1:8765/acp', 'a remote agent (acp serve)'],
  ['acp check --agent claude --only turn.,cancel.', 'only the turn and cancellation checks'],
  ['acp check --format json -- my-agent > report.json', 'the report for CI (documented in docs/check.md)'],
  ['acp run "go" -- acp check --client --report client.json', "check acp's own client"],
])}`;

export const REPLAY_HELP = `
Plays the agent of a recorded session to a client: acp replay is the agent command, the trace is
a session's trace.jsonl (acp sessions show ID prints its directory) or the file of acp proxy trace.
Each time the client sends what the recorded client sent next (same method, in order), the
agent's recorded frames that followed are sent back, responses under the live request's id. A
request the recording does not expect is answered with an error and reported. When the client
closes the connection, the report goes to stderr (--report FILE: also as JSON): how many recorded
client frames it matched, where it diverged, what it never sent, and requests whose params differ
from the recording. Exit code 0 when the client followed the recording exactly, 1 otherwise. It
turns a user's bug report (their trace) into a regression test for a client.
${examples([
  ['acp run "hello" -- acp replay trace.jsonl', "replay a recorded demo turn to acp's own client"],
  [
    'acp -- acp replay trace.jsonl',
    'the terminal UI against the recording (any client: acp replay FILE as its agent command)',
  ],
])}`;

export const COMPLETION_HELP = `
Prints a completion script for the shell, generated from acp's own commands and options: commands,
options, the values of options with fixed choices, files and directories, and agent names for
--agent (asked from \`acp agents list --format names\` as you type).
${examples([
  ['source <(acp completion bash)', 'bash, this shell only; add it to ~/.bashrc to keep it'],
  ['acp completion zsh > "${fpath[1]}/_acp"', 'zsh (then restart the shell)'],
  ['acp completion fish > ~/.config/fish/completions/acp.fish', 'fish'],
])}`;

export const CHAIN_HELP = `
Every -- starts a component; the last one is the agent, the others are proxies (they get
proxy/initialize, the agent initialize). To the client the chain is one agent: configure your
editor to run \`acp chain … -- AGENT\` where it ran the agent. When any component ends, the
others are stopped and the client's pending requests fail naming it. Proxy chains are an
UNSTABLE part of ACP: the protocol may change. docs/chains.md explains when to use them.
${examples([
  ['acp chain --trace t.jsonl -- claude-code-acp', "record what Claude's adapter sends"],
  ['acp chain -- node my-proxy.mjs -- acp agent --demo', 'your own proxy in front of the demo agent'],
  [
    'acp chain -- acp proxy trace --out t.jsonl -- gemini --experimental-acp',
    'the same as --trace, spelled out',
  ],
])}`;

export const PROXY_HELP = examples([
  ['acp proxy trace --out t.jsonl', 'the trace proxy, for a conductor to run (acp chain --trace does)'],
  ['acp proxy rules', 'the rules proxy (acp chain --rules runs it)'],
]);

export const PROXY_RULES_HELP = `
Only questions a saved allow or deny rule decides are answered here (acp rules list shows them);
an ask rule, or no rule, leaves the question to the client. The rules file is read again at each
question. The acp permission modes' defaults (reads allowed...) do not apply.
${examples([['acp chain -- acp proxy rules --agent claude -- claude-code-acp', 'Claude, with your rules for claude']])}`;

export const PROXY_TRACE_HELP = `
Lines are those of a session's trace.jsonl: {"t": ms, "dir": "out" (towards the agent) | "in",
"frame": the message, secrets redacted}; docs/chains.md describes them.
${examples([['acp chain -- acp proxy trace --out t.jsonl -- AGENT', 'record what AGENT sends and gets']])}`;

export const AGENT_HELP = examples([
  ['acp agent --demo', 'the model-free demo agent on stdin/stdout'],
  ['ACP_KIT_BASE_URL=http://localhost:11434/v1 ACP_KIT_MODEL=qwen3:8b acp agent', 'a local model (Ollama)'],
  ['acp run --agent acp-kit "explain this repository"', 'drive it from acp'],
]);
