/**
 * `@acp-kit/files`: listing a workspace's files the way a developer expects, honouring
 * `.gitignore`, `.ignore` and `.git/info/exclude`. Shared by the agent's search tools and the
 * terminal UI's `@` file picker. Node only.
 */
export {
  FileWalk,
  listFiles,
  walkFiles,
  type SymlinkPolicy,
  type Truncation,
  type WalkOptions,
  type WalkResult,
} from './walk.js';
export { globFilter, type GlobFilter } from './glob.js';
export { IGNORE_FILE_NAMES } from './ignore-rules.js';
