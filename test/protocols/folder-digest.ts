import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file under the given paths (files or folders) -> sha256 of its bytes: equal digests mean nothing was added, removed or changed. */
export async function filesDigest(...paths: string[]): Promise<Record<string, string>> {
  const digest: Record<string, string> = {};
  const visit = async (path: string): Promise<void> => {
    if ((await stat(path)).isDirectory()) {
      for (const entry of (await readdir(path)).sort()) await visit(join(path, entry));
      return;
    }
    digest[path] = createHash('sha256').update(await readFile(path)).digest('hex');
  };
  for (const path of paths) await visit(path);
  return digest;
}
