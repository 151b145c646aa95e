/**
 * The plugin's slash commands (/parley:deliberate, debate, review, status, doctor): one source in
 * skill/commands/, generated into plugin/commands/; the real Claude Code validates them strictly,
 * and runs two of them end to end in `claude -p` against the scripted Anthropic server: /parley:doctor
 * from the repository as a plugin (its shell step runs parley doctor, whose report reaches the model)
 * and /parley:status from plugin/ (the model's delib_status call reaches parley, and its result
 * comes back to the model).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { commandCopies, pluginCommandsDir } from '../../scripts/bundle.js';
import { startScriptedAnthropic, type AnthropicReply, type AnthropicRequestRecord } from '../doubles/scripted-anthropic.js';
import { claudeBin, createClaudeHome, type ClaudeHome } from '../doubles/claude-home.js';
import { PLUGIN_TOOL_PREFIX } from './scripted-orchestrator.js';
import { repoRoot } from './skill-files.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const COMMANDS = ['debate', 'deliberate', 'doctor', 'review', 'status'];

function frontmatter(text: string): Record<string, string> {
  const block = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
  return Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
}

async function toolNames(): Promise<string[]> {
  const { stdout } = await execa(process.execPath, [path.join(repoRoot, 'plugin/parley-server.mjs'), 'tools'], { timeout: 30_000 });
  return [...stdout.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!);
}

describe('the command sources and their plugin/ copies', () => {
  it('plugin/commands/ is exactly what skill/commands/ generates: run `npm run bundle` when this fails', async () => {
    const copies = await commandCopies();
    expect([...copies.keys()].map((file) => path.basename(file, '.md'))).toEqual(COMMANDS);
    expect((await readdir(pluginCommandsDir)).sort()).toEqual(COMMANDS.map((name) => `${name}.md`));
    for (const [target, text] of copies) expect(await readFile(target, 'utf8'), `${target} is stale`).toBe(text);
    expect(copies.get(path.join(pluginCommandsDir, 'doctor.md'))).toContain('node ${CLAUDE_PLUGIN_ROOT}/parley-server.mjs doctor');
  });

  it('each has a description and allowed-tools naming only parley tools that exist; status reads only; review is a critique-design of the diff', async () => {
    const tools = new Set(await toolNames());
    expect(tools.size).toBeGreaterThan(5);
    for (const name of COMMANDS) {
      const text = await readFile(path.join(repoRoot, 'skill/commands', `${name}.md`), 'utf8');
      const meta = frontmatter(text);
      expect(meta.description, name).toMatch(/\w{3,}/);
      expect(meta['disable-model-invocation'], name).toBe('true');
      const named = [...text.matchAll(new RegExp(`${PLUGIN_TOOL_PREFIX}([a-z_]+)`, 'g'))].map((m) => m[1]!);
      for (const tool of named) expect(tools.has(tool), `${name} names ${tool}, which parley does not have`).toBe(true);
    }
    const status = frontmatter(await readFile(path.join(repoRoot, 'skill/commands/status.md'), 'utf8'));
    expect(status['allowed-tools']!.split(/,\s*/).map((t) => t.replace(PLUGIN_TOOL_PREFIX, '')).sort()).toEqual(['delib_status', 'run_list', 'run_status']);
    const doctor = frontmatter(await readFile(path.join(repoRoot, 'skill/commands/doctor.md'), 'utf8'));
    expect(doctor['allowed-tools']).toBe('Bash(node ${CLAUDE_PLUGIN_ROOT}/plugin/parley-server.mjs doctor:*)');
    const review = await readFile(path.join(repoRoot, 'skill/commands/review.md'), 'utf8');
    expect(review).toContain('framing: "critique-design"');
    expect(review).toMatch(/git diff HEAD/);
    expect(frontmatter(review)['allowed-tools']).not.toMatch(/\b(Edit|Write)\b/);
  });
});

describe('claude plugin validate --strict checks the commands', () => {
  async function validate(target: string, home: ClaudeHome) {
    return execa(claudeBin, ['plugin', 'validate', '--strict', target], { cwd: home.cwd, env: home.env, extendEnv: false, reject: false, input: '', timeout: 60_000 });
  }

  it('passes on plugin/ with its commands, and fails on a copy with one command lacking a description', async () => {
    const home = await createClaudeHome('http://127.0.0.1:9');
    cleanups.push(home.remove);
    const good = await validate(path.join(repoRoot, 'plugin'), home);
    expect(good.exitCode, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toContain('✔ Validation passed');
    const copy = await mkdtemp(path.join(tmpdir(), 'parley-commands-'));
    cleanups.push(() => rm(copy, { recursive: true, force: true }));
    await mkdir(path.join(copy, '.claude-plugin'));
    await cp(path.join(repoRoot, 'plugin/.claude-plugin/plugin.json'), path.join(copy, '.claude-plugin/plugin.json'));
    await cp(pluginCommandsDir, path.join(copy, 'commands'), { recursive: true });
    const status = await readFile(path.join(copy, 'commands/status.md'), 'utf8');
    await writeFile(path.join(copy, 'commands/status.md'), status.replace(/^description: .*\n/m, ''));
    const bad = await validate(copy, home);
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout + bad.stderr).toMatch(/status\.md[\s\S]*description/);
  });
});

/** Every text the model was sent, tool results included. */
function sentText(req: AnthropicRequestRecord): string {
  const parts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const block = value as { text?: unknown; content?: unknown };
      if (typeof block.text === 'string') parts.push(block.text);
      walk(block.content);
    }
  };
  walk(req.body?.messages);
  return parts.join('\n');
}

async function runCommand(prompt: string, pluginDir: string, script: (req: AnthropicRequestRecord) => AnthropicReply, before?: (home: ClaudeHome) => Promise<void>) {
  const anthropic = await startScriptedAnthropic(script);
  const home = await createClaudeHome(anthropic.baseUrl);
  cleanups.push(anthropic.close, home.remove);
  await before?.(home);
  // No --allowedTools: the command's own allowed-tools must be enough.
  const run = await execa(claudeBin, ['-p', prompt, '--output-format', 'json', '--plugin-dir', pluginDir], { cwd: home.cwd, env: home.env, extendEnv: false, reject: false, input: '', timeout: 180_000 });
  expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
  return { anthropic, home, result: JSON.parse(run.stdout) as { result: string; is_error: boolean; permission_denials?: unknown[] } };
}

describe('the commands in claude -p (scripted model)', () => {
  it('/parley:doctor from the repository as a plugin: parley doctor runs in the command, its report reaches the model', { timeout: 200_000 }, async () => {
    const { anthropic, home, result } = await runCommand('/parley:doctor', repoRoot, (req) => {
      if (!Array.isArray(req.body?.tools)) return { text: 'parley doctor' };
      const failed = /^fail .*$/m.exec(sentText(req))?.[0];
      return { text: `Doctor says: ${failed ?? 'no failure line seen'}` };
    });
    const turn = anthropic.requests.find((req) => Array.isArray(req.body?.tools));
    const sent = sentText(turn!);
    expect(sent).toContain('<command-name>/parley:doctor</command-name>');
    expect(sent).toMatch(/^ok +node +Node\.js \d+/m);
    // ${CLAUDE_PLUGIN_DATA} and ${CLAUDE_PLUGIN_ROOT} were expanded into doctor's arguments.
    expect(sent).toMatch(new RegExp(`^ok +state +${escapeRegExp(path.join(home.configDir, 'plugins/data/parley-inline'))} writable`, 'm'));
    expect(sent).toMatch(new RegExp(`^ok +plugin +loaded from ${repoRoot} \\(not installed from a marketplace\\)$`, 'm'));
    // No codex login in this home: doctor fails it (exit 1), and the command still shows the report.
    expect(sent).toMatch(/^fail +codex login +not logged in/m);
    expect(sent).toContain('fix: run `codex login`');
    expect(sent).not.toContain('dummy-key-for-scripted-server');
    expect(result.is_error).toBe(false);
    expect(result.permission_denials ?? []).toEqual([]);
    expect(result.result).toMatch(/^Doctor says: fail +codex login +not logged in/);
  });

  it('/parley:status from plugin/: the model calls delib_status, parley answers with the stored deliberation, and the model reads it', { timeout: 200_000 }, async () => {
    let seeded = '';
    const calls: string[] = [];
    const { anthropic, result } = await runCommand(
      '/parley:status',
      path.join(repoRoot, 'plugin'),
      (req) => {
        if (!Array.isArray(req.body?.tools)) return { text: 'parley status' };
        const toolResult = (req.body.messages as { content: unknown }[]).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b: { type?: string }) => b.type === 'tool_result');
        if (!toolResult) {
          calls.push(`${PLUGIN_TOOL_PREFIX}delib_status`);
          return { toolUse: { name: `${PLUGIN_TOOL_PREFIX}delib_status`, input: {}, id: 'toolu_status_1' } };
        }
        const ids = [...sentText(req).matchAll(/d-\d{8}-\d{6}-[0-9a-f]{6}/g)].map((m) => m[0]);
        return { text: `Deliberations seen: ${[...new Set(ids)].join(', ') || 'none'}` };
      },
      async (home) => {
        // One stored deliberation in the plugin's data folder (PARLEY_STATE_DIR), made by the same server.
        const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repoRoot, 'plugin/parley-server.mjs')], env: { PATH: process.env.PATH ?? '', PARLEY_STATE_DIR: path.join(home.configDir, 'plugins/data/parley-inline') }, stderr: 'pipe' });
        const client = new Client({ name: 'commands-test', version: '0' });
        await client.connect(transport);
        try {
          const started = await client.callTool({ name: 'delib_start', arguments: { question: 'Is /parley:status honest?', mode: 'minimal', consult: false } });
          seeded = (started.structuredContent as { deliberationId: string }).deliberationId;
        } finally {
          await client.close();
        }
      },
    );
    expect(seeded).toMatch(/^d-\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(calls).toEqual([`${PLUGIN_TOOL_PREFIX}delib_status`]);
    const answered = anthropic.requests.find((req) => sentText(req).includes('Is /parley:status honest?'));
    expect(answered, 'no request carried the tool result').toBeDefined();
    expect(result.permission_denials ?? []).toEqual([]);
    expect(result.result).toBe(`Deliberations seen: ${seeded}`);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
