/**
 * Saved permission rules: `rules.json` in the user's config dir, `{ "rules": [PermissionRule…] }`.
 * Reviewable and editable by hand or with `acp rules`; applies to every agent unless a rule says
 * otherwise.
 */
import { ClientError } from '../errors.js';
import { newId } from '../util/ids.js';
import { isRecord, readJsonFile, writeJsonFile } from '../util/json-file.js';
import { parseRule, type PermissionRule } from './rules.js';

/**
 * Reads a rules document (`{rules: [...]}` or a bare array). Throws CONFIG_INVALID on a bad rule:
 * a policy silently missing a deny rule would be worse than a clear error.
 */
export function parseRulesDocument(document: unknown, where: string): PermissionRule[] {
  const list = Array.isArray(document) ? document : isRecord(document) ? document.rules : undefined;
  if (list === undefined && isRecord(document) && Object.keys(document).length === 0) return [];
  if (!Array.isArray(list)) throw new ClientError('CONFIG_INVALID', `${where}: expected {"rules": [...]}`);
  return list.map((raw, index) => parseRule(raw, `${where}: rule ${index + 1}`));
}

/** Loads a rules file (for example a `--policy FILE`); a missing file is an error. */
export async function loadRulesFile(path: string): Promise<PermissionRule[]> {
  const document = await readJsonFile(path);
  if (document === undefined) throw new ClientError('CONFIG_INVALID', `${path} does not exist`, { path });
  return parseRulesDocument(document, path);
}

/**
 * The saved rules.
 *
 * @example
 * const store = await RuleStore.load(paths.rulesFile);
 * await store.add({ action: 'allow', kinds: ['execute'], command: 'npm test' });
 */
export class RuleStore {
  private constructor(
    readonly file: string,
    private items: PermissionRule[],
  ) {}

  /** Loads the file (missing: no rules). */
  static async load(file: string): Promise<RuleStore> {
    const document = await readJsonFile(file);
    return new RuleStore(file, document === undefined ? [] : parseRulesDocument(document, file));
  }

  /** The rules, in file order. */
  get rules(): readonly PermissionRule[] {
    return this.items;
  }

  /** Validates, adds and saves a rule; returns it with its id. */
  async add(rule: Omit<PermissionRule, 'id' | 'createdAt'> & { id?: string }): Promise<PermissionRule> {
    const stored = parseRule(
      { ...rule, id: rule.id ?? newId('r'), createdAt: new Date().toISOString() },
      'new rule',
    );
    this.items = [...this.items, stored];
    await this.save();
    return stored;
  }

  /** Removes a rule by id (or unique id prefix) and saves; returns it, or undefined. */
  async remove(idOrPrefix: string): Promise<PermissionRule | undefined> {
    const exact = this.items.find((rule) => rule.id === idOrPrefix);
    const candidates = exact ? [exact] : this.items.filter((rule) => rule.id.startsWith(idOrPrefix));
    if (candidates.length !== 1) return undefined;
    const removed = candidates[0] as PermissionRule;
    this.items = this.items.filter((rule) => rule !== removed);
    await this.save();
    return removed;
  }

  /** Rereads the file (another process may have changed it). */
  async reload(): Promise<void> {
    const document = await readJsonFile(this.file);
    this.items = document === undefined ? [] : parseRulesDocument(document, this.file);
  }

  private save(): Promise<void> {
    return writeJsonFile(this.file, { rules: this.items });
  }
}
