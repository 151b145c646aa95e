/**
 * Writes package.json's version into the manifests that cannot import it (JSON files Claude Code
 * reads): the plugin manifests and the marketplace entry. npm runs it as the `version` lifecycle
 * script, so `npm version <new>` leaves every copy in step; test/mcp-server/docs.test.ts checks them.
 *
 *   node --import tsx scripts/sync-version.ts [root]
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const VERSIONED_MANIFESTS = ['.claude-plugin/plugin.json', 'plugin/.claude-plugin/plugin.json', '.claude-plugin/marketplace.json'];

/** Rewrites each `"version": "..."` in the manifests under root to package.json's version; returns the files changed. */
export async function syncVersion(root: string): Promise<string[]> {
  const { version } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const changed: string[] = [];
  for (const manifest of VERSIONED_MANIFESTS) {
    const file = path.join(root, manifest);
    const before = await readFile(file, 'utf8');
    // A text replacement, not a JSON round trip, so the manifests keep their hand-made layout.
    const after = before.replace(/("version"\s*:\s*)"[^"]*"/g, (_match, key: string) => `${key}${JSON.stringify(version)}`);
    if (after === before) continue;
    await writeFile(file, after);
    changed.push(manifest);
  }
  return changed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
  for (const manifest of await syncVersion(root)) console.error(`version: ${manifest}`);
}
