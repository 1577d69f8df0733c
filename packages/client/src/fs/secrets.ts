/**
 * Files that usually hold credentials. Reading or writing them needs explicit permission (a rule
 * naming the path, or the user's answer) even when reads are otherwise allowed.
 */
import { basename, sep } from 'node:path';

const SECRET_NAMES = [
  /^\.env(\..*)?$/i,
  /^\.envrc$/i,
  /\.(pem|key|p12|pfx|jks|keystore|kdbx|gpg|asc)$/i,
  /^id_(rsa|dsa|ecdsa|ed25519|xmss)(_sk)?$/i,
  /^\.?(netrc|_netrc|pgpass|npmrc|pypirc|git-credentials|htpasswd)$/i,
  /^credentials(\.json)?$/i,
  /^secrets?\.(json|ya?ml|toml)$/i,
];

/** Directories whose every file is secret. */
const SECRET_DIRS = ['.ssh', '.gnupg', '.aws', '.kube', '.docker'];

/**
 * Whether `path` looks like a secret: `.env*`, private keys and certificates, `.netrc`/`.npmrc`
 * and other credential files, anything under `.ssh/` or `.gnupg/`, and `.git/config`.
 *
 * @example
 * isSecretPath('/p/.env.local'); // true
 * isSecretPath('/p/src/env.ts'); // false
 */
export function isSecretPath(path: string): boolean {
  const parts = path.split(sep).filter((part) => part !== '');
  const name = basename(path);
  if (SECRET_NAMES.some((pattern) => pattern.test(name))) return true;
  if (parts.slice(0, -1).some((part) => SECRET_DIRS.includes(part))) return true;
  const n = parts.length;
  return n >= 2 && parts[n - 2] === '.git' && parts[n - 1] === 'config';
}
