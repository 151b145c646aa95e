import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readmeWithToolReference } from '../../mcp-server/docs.js';
import { listRegisteredTools } from '../../mcp-server/tool-reference.js';
import { PARLEY_VERSION } from '../../mcp-server/version.js';

const root = resolve(import.meta.dirname, '../..');

describe('documentation matches the code', () => {
  it('the README tool reference is the one generated from the registered tools', async () => {
    const readme = await readFile(resolve(root, 'README.md'), 'utf8');
    expect(readme, 'run `npm run docs` to regenerate the README tool reference').toBe(await readmeWithToolReference(readme));
  });

  it('every registered tool follows the conventions: snake_case, description, both schemas, all four annotations', async () => {
    for (const tool of await listRegisteredTools()) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(tool.description?.length).toBeGreaterThan(10);
      expect(tool.outputSchema).toBeDefined();
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe('boolean');
      }
    }
  });

  it('the whole tools/list (all three protocols) stays within its budget of 4,000 tokens (chars/4)', async () => {
    const tools = await listRegisteredTools();
    expect(Math.round(JSON.stringify({ tools }).length / 4)).toBeLessThanOrEqual(4000);
  });

  it('every version string is the package version (server, plugin manifests, marketplace)', async () => {
    const json = async (path: string) => JSON.parse(await readFile(resolve(root, path), 'utf8'));
    const { version } = await json('package.json');
    expect(PARLEY_VERSION).toBe(version);
    expect((await json('.claude-plugin/plugin.json')).version).toBe(version);
    expect((await json('plugin/.claude-plugin/plugin.json')).version).toBe(version);
    for (const entry of (await json('.claude-plugin/marketplace.json')).plugins) expect(entry.version, entry.name).toBe(version);
  });
});
