/**
 * The agents acp knows out of the box. Launch commands are those documented by each project
 * (and listed in the ACP registry); each runs the globally installed command, never `npx`, so
 * nothing is downloaded behind the user's back.
 */
import type { AgentEntry, LaunchSpec } from './types.js';

/**
 * Credential variables of model providers, for agents that can use any of them (`passEnv`
 * patterns: the agent sees these of the user's variables, and no other credentials).
 */
const PROVIDER_KEYS = [
  'OPENAI_*',
  'ANTHROPIC_*',
  'GEMINI_*',
  'GOOGLE_API_KEY',
  'OPENROUTER_*',
  'GROQ_*',
  'MISTRAL_*',
  'DEEPSEEK_*',
  'XAI_*',
  'TOGETHER_*',
  'FIREWORKS_*',
  'DASHSCOPE_*',
  'AZURE_*',
  'OLLAMA_*',
];
/** Cloud credentials that hosted models are reached with (Bedrock, Vertex AI). */
const CLOUD_CREDENTIALS = ['AWS_*', 'GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_*'];

/**
 * Built-in entries. `self` is how to run this very `acp` (for `demo` and `acp-kit`); without it
 * they run `acp` from PATH.
 */
export function builtinAgents(self?: LaunchSpec): AgentEntry[] {
  const acp: LaunchSpec = self ?? { command: 'acp', args: [] };
  return [
    {
      id: 'demo',
      name: 'acp-kit demo agent',
      description: 'Deterministic, model-free agent that exercises every ACP feature',
      source: 'builtin',
      command: acp.command,
      args: [...acp.args, 'agent', '--demo'],
      ...(acp.env ? { env: acp.env } : {}),
    },
    {
      id: 'acp-kit',
      name: 'acp-kit agent',
      description: 'The acp-kit coding agent (OpenAI-compatible or Anthropic models)',
      source: 'builtin',
      command: acp.command,
      args: [...acp.args, 'agent'],
      passEnv: ['ACP_KIT_*', ...PROVIDER_KEYS],
      ...(acp.env ? { env: acp.env } : {}),
    },
    {
      id: 'claude',
      name: 'Claude Agent',
      description: "Anthropic's Claude through the claude-agent-acp adapter",
      source: 'builtin',
      aliases: ['claude-agent-acp', 'claude-code', 'claude-acp'],
      command: 'claude-agent-acp',
      args: [],
      install: 'npm install -g @agentclientprotocol/claude-agent-acp',
      passEnv: ['ANTHROPIC_*', 'CLAUDE_*', ...CLOUD_CREDENTIALS],
      authHint: 'set ANTHROPIC_API_KEY, or log in once with Claude Code (`claude /login`)',
    },
    {
      id: 'codex',
      name: 'Codex',
      description: "OpenAI's Codex through the codex-acp adapter",
      source: 'builtin',
      aliases: ['codex-acp'],
      command: 'codex-acp',
      args: [],
      install: 'npm install -g @agentclientprotocol/codex-acp',
      passEnv: ['OPENAI_*', 'CODEX_*', 'AZURE_*'],
      authHint: 'set OPENAI_API_KEY or CODEX_API_KEY, or log in once with `codex login`',
    },
    {
      id: 'gemini',
      name: 'Gemini CLI',
      description:
        "Google's Gemini CLI in ACP mode (Gemini CLI 0.33 or later; older versions need --experimental-acp)",
      source: 'builtin',
      aliases: ['gemini-cli'],
      command: 'gemini',
      args: ['--acp'],
      install: 'npm install -g @google/gemini-cli',
      passEnv: ['GEMINI_*', 'GOOGLE_*'],
      authHint: 'set GEMINI_API_KEY, or run `gemini` once and log in with Google',
    },
    {
      id: 'qwen',
      name: 'Qwen Code',
      description: "Alibaba's Qwen Code in ACP mode",
      source: 'builtin',
      aliases: ['qwen-code'],
      command: 'qwen',
      args: ['--acp'],
      install: 'npm install -g @qwen-code/qwen-code',
      passEnv: ['OPENAI_*', 'QWEN_*', 'DASHSCOPE_*'],
      authHint: 'run `qwen` once and log in (Qwen OAuth), or set OPENAI_API_KEY with OPENAI_BASE_URL',
    },
    {
      id: 'goose',
      name: 'goose',
      description: "Block's open-source agent in ACP mode",
      source: 'builtin',
      command: 'goose',
      args: ['acp'],
      install: 'see https://block.github.io/goose/ (installs the `goose` command)',
      passEnv: ['GOOSE_*', ...PROVIDER_KEYS, ...CLOUD_CREDENTIALS],
      authHint: 'run `goose configure` to choose a provider and store its key',
    },
    {
      id: 'opencode',
      name: 'OpenCode',
      description: 'The open-source coding agent in ACP mode',
      source: 'builtin',
      command: 'opencode',
      args: ['acp'],
      install: 'see https://opencode.ai (installs the `opencode` command)',
      passEnv: ['OPENCODE_*', ...PROVIDER_KEYS, ...CLOUD_CREDENTIALS],
      authHint: 'run `opencode auth login`',
    },
    {
      id: 'pi',
      name: 'pi',
      description: 'The pi coding agent through the pi-acp adapter',
      source: 'builtin',
      aliases: ['pi-acp'],
      command: 'pi-acp',
      args: [],
      // pi-acp runs `pi --mode rpc`: an old pi (the @mariozechner package) never answers it.
      install:
        'npm install -g pi-acp @earendil-works/pi-coding-agent (pi needs Node.js 22.19 or later; an older pi, such as @mariozechner/pi-coding-agent, makes pi-acp hang without a word)',
      passEnv: ['PI_*', ...PROVIDER_KEYS, ...CLOUD_CREDENTIALS],
      authHint: 'run `pi` once and log in (`/login`), or set the API key of its provider',
    },
    {
      id: 'copilot',
      name: 'GitHub Copilot CLI',
      description:
        "GitHub's Copilot CLI in ACP mode (no GitHub login needed when COPILOT_PROVIDER_BASE_URL names your own provider)",
      source: 'builtin',
      aliases: ['copilot-cli', 'github-copilot'],
      command: 'copilot',
      args: ['--acp'],
      install: 'npm install -g @github/copilot',
      passEnv: ['COPILOT_*', 'GH_TOKEN', 'GITHUB_TOKEN'],
      authHint:
        'run `copilot` once and sign in with `/login` (or set COPILOT_GITHUB_TOKEN to a GitHub token with Copilot access); without a GitHub login, set COPILOT_PROVIDER_BASE_URL (with COPILOT_PROVIDER_API_KEY and COPILOT_MODEL) to use your own model provider',
    },
  ];
}
