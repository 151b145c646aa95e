import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { toolGroups, TOOL_PROFILES } from '../../mcp-server/tool-profiles.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import { startHarness } from './harness.js';

const root = resolve(import.meta.dirname, '../..');
const entry = join(root, 'dist/cli/main.js');
const DELIB = ['delib_start', 'delib_status', 'delib_consult', 'delib_judge', 'delib_synthesize', 'delib_arbitrate'];
const RUNS = ['run_start', 'run_status', 'run_result', 'run_cancel', 'run_list'];
let home: string;

beforeAll(async () => {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (npm test does it)`);
  home = await mkdtemp(join(tmpdir(), 'parley-profiles-'));
});
afterAll(async () => rm(home, { recursive: true, force: true }));

describe('PARLEY_TOOLS names the profile', () => {
  it('reads one profile, a comma list, or nothing (all)', () => {
    expect([...toolGroups(undefined)]).toEqual(['argumentation', 'runs']);
    expect([...toolGroups('')]).toEqual(['argumentation', 'runs']);
    expect([...toolGroups('argumentation')]).toEqual(['argumentation']);
    expect([...toolGroups(' Runs ')]).toEqual(['runs']);
    expect([...toolGroups('runs,argumentation')].sort()).toEqual(['argumentation', 'runs']);
    expect(Object.keys(TOOL_PROFILES)).toEqual(['all', 'argumentation', 'runs']);
  });

  it('refuses an unknown name, naming the valid ones', () => {
    expect(() => toolGroups('argumentation,debate')).toThrow(UserFacingError);
    expect(() => toolGroups('delib')).toThrow(/PARLEY_TOOLS=delib names no profile \(delib\): use one of all, argumentation, runs/);
  });
});

describe('a profile serves its tools, resources and instructions only', () => {
  const cases = [
    { profile: 'argumentation', tools: DELIB, templates: /^parley:\/\/(deliberations|decisions)\//, instructions: /delib_judge/, not: /run_start/ },
    { profile: 'runs', tools: RUNS, templates: /^parley:\/\/runs\//, instructions: /run_start/, not: /delib_/ },
  ];
  for (const c of cases) {
    it(`PARLEY_TOOLS=${c.profile}`, async () => {
      const h = await startHarness({ env: { PARLEY_TOOLS: c.profile } });
      try {
        expect((await h.client.listTools()).tools.map((tool) => tool.name)).toEqual(c.tools);
        const { resourceTemplates } = await h.client.listResourceTemplates();
        expect(resourceTemplates.length).toBeGreaterThan(0);
        for (const template of resourceTemplates) expect(template.uriTemplate).toMatch(c.templates);
        expect(h.client.getInstructions()).toMatch(c.instructions);
        expect(h.client.getInstructions()).not.toMatch(c.not);
        const other = c.profile === 'runs' ? 'delib_status' : 'run_list';
        expect((await h.call(other)).isError).toBe(true);
      } finally {
        await h.close();
      }
    });
  }

  it('all (the default) serves both groups, deliberation and run resources alike', async () => {
    const h = await startHarness({ env: {} });
    try {
      expect((await h.client.listTools()).tools.map((tool) => tool.name)).toEqual([...DELIB, ...RUNS]);
      const uris = (await h.client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
      expect(uris.some((uri) => uri.startsWith('parley://runs/'))).toBe(true);
      expect(uris.some((uri) => uri.startsWith('parley://deliberations/'))).toBe(true);
    } finally {
      await h.close();
    }
  });
});

describe('the built server over stdio', () => {
  it('refuses to start on an unknown profile: exit 1, the valid profiles on stderr, nothing on stdout', async () => {
    const run = await execa(process.execPath, [entry, 'serve'], { env: { PARLEY_STATE_DIR: home, PARLEY_TOOLS: 'argumentaton' }, input: '', reject: false, timeout: 30_000 });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('PARLEY_TOOLS=argumentaton names no profile');
    expect(run.stderr).toContain('all, argumentation, runs');
    expect(run.stdout).toBe('');
  });

  it('serves only the run tools with PARLEY_TOOLS=runs', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [entry], env: { ...process.env, PARLEY_STATE_DIR: home, PARLEY_TOOLS: 'runs' } as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'profile-test', version: '0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(RUNS);
    } finally {
      await client.close();
    }
  });
});
