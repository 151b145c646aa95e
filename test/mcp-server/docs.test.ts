import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readmeWithToolReference } from '../../scripts/docs.js';
import { listRegisteredTools, toolListSize } from '../../mcp-server/tool-reference.js';
import { TOOL_PROFILES } from '../../mcp-server/tool-profiles.js';
import { PARLEY_VERSION } from '../../mcp-server/version.js';

const root = resolve(import.meta.dirname, '../..');

describe('documentation matches the code', () => {
  it('the README tool reference is the one generated from the registered tools', async () => {
    const readme = await readFile(resolve(root, 'README.md'), 'utf8');
    expect(readme, 'run `npm run docs` to regenerate the README tool reference').toBe(await readmeWithToolReference(readme));
  });

  it('the README profile table gives each profile its tools and tools/list size, and a stale figure is caught', async () => {
    const readme = await readFile(resolve(root, 'README.md'), 'utf8');
    for (const profile of Object.keys(TOOL_PROFILES)) {
      const tools = await listRegisteredTools(profile);
      const { tokens, bytes } = toolListSize(tools);
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${profile}\``));
      expect(row, `README row for PARLEY_TOOLS=${profile}`).toBeDefined();
      expect(row).toContain(`| ${tokens.toLocaleString('en-US')} | ${bytes.toLocaleString('en-US')} |`);
      for (const tool of tools) expect(row).toContain(`\`${tool.name}\``);
    }
    const stale = readme.replace(/^(\| `runs` \|.*\| )([\d,]+)( \|)$/m, '$1999,999$3');
    expect(stale).not.toBe(readme);
    expect(await readmeWithToolReference(stale)).toBe(readme);
  });

  it('the profiles split the tools: argumentation is delib_*, runs is run_*, all is both in order', async () => {
    const names = async (profile: string) => (await listRegisteredTools(profile)).map((tool) => tool.name);
    const argumentation = await names('argumentation');
    const runs = await names('runs');
    expect(argumentation.length).toBeGreaterThan(0);
    expect(runs.length).toBeGreaterThan(0);
    for (const name of argumentation) expect(name).toMatch(/^delib_/);
    for (const name of runs) expect(name).toMatch(/^run_/);
    expect(await names('all')).toEqual([...argumentation, ...runs]);
    expect(toolListSize(await listRegisteredTools('argumentation')).tokens).toBeLessThan(toolListSize(await listRegisteredTools('all')).tokens);
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
    expect(toolListSize(tools).tokens).toBe(Math.round(JSON.stringify({ tools }).length / 4));
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
