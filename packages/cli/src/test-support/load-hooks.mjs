// Module hooks of load-recorder.mjs: each resolved URL is appended to ACP_LOAD_LOG.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (process.env.ACP_LOAD_LOG) appendFileSync(process.env.ACP_LOAD_LOG, `${resolved.url}\n`);
  return resolved;
}
