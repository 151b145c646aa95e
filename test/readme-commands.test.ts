/**
 * Every shell command in README.md's ```sh blocks, accounted for: run here as written (in a folder laid
 * out as the reader's clone, with the PATH the set-up leaves them: no `parley` on it, so the README
 * writes `node plugin/parley-server.mjs`), run as written by another test that reads it from the
 * README, or named with the reason no test runs it verbatim. A command added to the README without an
 * entry here fails the first test; one that starts with a program the set-up does not give the reader
 * fails the second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { execa } from 'execa';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { debateRun, dialogicRun } from './protocols/report/fixtures.js';
import { claudeBin, createClaudeHome, type ClaudeHome } from './doubles/claude-home.js';

const root = resolve(import.meta.dirname, '..');
const bundle = join(root, 'plugin/parley-server.mjs');

/** The README's sh blocks as command lines: continuations joined, comments and shebang/#SBATCH lines dropped. */
async function readmeShellCommands(): Promise<string[]> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const commands: string[] = [];
  for (const [, block] of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = block!.replace(/\\\n\s*/g, '');
    for (const line of joined.split('\n')) {
      const command = line.replace(/(^|\s+)#(?![!]).*$/, '').trim();
      if (command && !command.startsWith('#')) commands.push(command);
    }
  }
  return commands;
}

const HERE = 'run as written in this file';
const SLURM = "test/protocols/sweep/slurm.test.ts: sweep.sbatch, merge.sbatch and the sbatch lines, read from the README, run as written on a single-node Slurm (the sweep file's models are parley's demo model)";
/** Each README command and which test runs it, or why none runs it verbatim. */
const COVERAGE: Record<string, string> = {
  'npm ci': 'not run by a test: it would reinstall the tree under test; the CI script (.ci/run) runs it',
  'node plugin/parley-server.mjs demo': 'test/cli/demo.test.ts runs `parley demo` as written in an empty folder, through dist/cli/main.js (the sources the bundle is built from), with the real codex binary',
  'node plugin/parley-server.mjs demo --serve --port 8700': 'not verbatim: port 8700 may be taken; test/cli/demo.test.ts runs `parley demo --serve` on a free port and a real `parley debate` against it, and `--port` on a port in use',
  'npm ci && npm start --silent': 'the `npm start --silent` half is run here as written; `npm ci` is not (it would reinstall the tree under test): the CI script (.ci/run) runs it',
  'apt-get update && apt-get install -y chromium slurm-wlm munge && npm ci && npm test': 'not run by a test: it is the CI job itself (.ci/run installs .ci/apt-packages, then runs npm ci and npm test) and needs root',
  'claude mcp add parley -- node /path/to/parley/plugin/parley-server.mjs': 'test/plugin/plugin.test.ts (read from the README, then `claude mcp list` shows it Connected)',
  'claude mcp list': 'test/plugin/plugin.test.ts',
  'codex mcp add parley -- node /path/to/parley/plugin/parley-server.mjs': 'test/plugin/plugin.test.ts (read from the README, then `codex mcp list --json`)',
  'node plugin/parley-server.mjs dialogic --model-a openai:gpt-4.1 --model-b codex:gpt-5.2 --out run.json': 'not verbatim: needs an OpenAI key and a logged-in Codex; test/protocols/dialogic/cli.test.ts runs `parley dialogic --model-a ... --out` against scripted servers',
  'node plugin/parley-server.mjs dialogic analyze run.json': HERE,
  'node plugin/parley-server.mjs debate "Should we ship on Friday?" --agent openai:gpt-4.1 --agent claude:sonnet --agent codex:gpt-5.2 --rounds 3 --crit openai:gpt-4.1 --pid --out debate.json':
    'not verbatim: needs hosted models (OpenAI key, Claude and Codex logins); test/protocols/debate/cli.test.ts runs `parley debate` against scripted servers',
  'node plugin/parley-server.mjs debate analyze debate.json --format dot': HERE,
  'node plugin/parley-server.mjs sweep capitulation.yaml --out results/ --concurrency 8': 'not verbatim: the README sweep file names hosted models; test/protocols/sweep/cli.test.ts runs `parley sweep` on sweep files with scripted models',
  'node plugin/parley-server.mjs sweep summarize results/ --by pairing,anonymise': 'not verbatim: needs a finished sweep; test/protocols/sweep/cli.test.ts runs `sweep summarize --by`',
  'node plugin/parley-server.mjs sweep summarize results/ --compare pairing=gpt-vs-claude,claude-vs-gpt': 'not verbatim: needs a finished sweep; test/protocols/sweep/statistics.test.ts runs `sweep summarize --compare`',
  'exec parley sweep capitulation.yaml --concurrency 4 --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}" --out "results/shard-${SLURM_ARRAY_TASK_ID}"': SLURM,
  'set -e': SLURM,
  'parley sweep merge results/shard-* --out results/all': SLURM,
  'parley sweep summarize results/all --by pairing,anonymise': SLURM,
  'jobid=$(sbatch --parsable sweep.sbatch)': SLURM,
  'sbatch --dependency=afterok:"$jobid" merge.sbatch': SLURM,
  'node plugin/parley-server.mjs report run.json --html run.html': HERE,
  'node plugin/parley-server.mjs report debate.json': HERE,
  'node plugin/parley-server.mjs report a.json b.json c.json --compare --html compare.html': HERE,
  'node plugin/parley-server.mjs report results/summary.json --compare': 'not verbatim: needs a finished sweep; test/protocols/report/report-extra.test.ts runs `parley report <sweep>/summary.json --compare` on a real sweep',
  'node plugin/parley-server.mjs report deliberation.json --format madr --md docs/adr/0007-job-queue.md':
    'not verbatim: needs a synthesized deliberation; test/protocols/report/report.test.ts runs `parley report <state> --format madr --md <file>` on one made by the engine',
  'claude mcp add parley -e PARLEY_TOOLS=argumentation -- node /path/to/parley/plugin/parley-server.mjs': HERE,
  'npx @modelcontextprotocol/inspector --cli node plugin/parley-server.mjs serve --method tools/list': 'test/mcp-server/stdio.test.ts (read from the README by its marker, run as written)',
};

/**
 * The programs a reader has where the README's set-up leaves them: Node.js and npm (the prerequisites),
 * apt-get (the CI line, as root), and Claude Code and Codex for the lines that register parley with
 * them. Not `parley`: in a clone nothing puts it on PATH.
 */
const READER_PROGRAMS = ['node', 'npm', 'npx', 'apt-get', 'claude', 'codex'];

/** The program each part of a command line starts (`a && b`, `a | b`, `a; b`). */
const programsOf = (command: string): string[] => command.split(/&&|\|\||[|;]/).map((part) => part.trim().split(/\s+/)[0]!);

/** The PATH after the set-up: what npm test puts in front of it (node_modules/.bin) is not the reader's. */
const readerPath = (): string => (process.env.PATH ?? '').split(delimiter).filter((folder) => !folder.includes('node_modules/.bin')).join(delimiter);

let dir: string;
const homes: ClaudeHome[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-readme-'));
  // The commands run from the clone's folder: its plugin/ is here as it is there.
  await symlink(join(root, 'plugin'), join(dir, 'plugin'));
  await copyFile(await dialogicRun(dir), join(dir, 'run.json'));
  await copyFile(await debateRun(dir), join(dir, 'debate.json'));
  for (const name of ['a.json', 'b.json', 'c.json']) await copyFile(join(dir, 'debate.json'), join(dir, name));
}, 60_000);
afterAll(async () => {
  await Promise.all(homes.map((home) => home.remove()));
  await rm(dir, { recursive: true, force: true });
});

/** A README command line run by the shell as written, from the scratch clone folder, with the reader's PATH. */
async function runAsWritten(command: string) {
  expect(await readmeShellCommands()).toContain(command);
  return execa(command, { shell: true, cwd: dir, env: { ...process.env, PATH: readerPath(), PARLEY_STATE_DIR: join(dir, 'state') }, timeout: 60_000 });
}

describe("README.md's shell commands", () => {
  it('each one is accounted for: run by a test, or why not', async () => {
    const commands = await readmeShellCommands();
    expect(commands.length).toBeGreaterThan(10);
    expect(commands.filter((command) => !(command in COVERAGE)), 'add the new README command to COVERAGE with the test that runs it').toEqual([]);
    expect(Object.keys(COVERAGE).filter((command) => !commands.includes(command)), 'a COVERAGE entry no longer in the README').toEqual([]);
  });

  it('each one starts with a program the set-up leaves the reader: `parley` is not one in a clone (issue 28, item 5)', async () => {
    // The Slurm job files run on a cluster's nodes, whose set-up the README states: parley on PATH (npm link) and sbatch.
    const commands = (await readmeShellCommands()).filter((command) => COVERAGE[command] !== SLURM);
    const foreign = commands.flatMap((command) => programsOf(command).filter((program) => !READER_PROGRAMS.includes(program)).map((program) => `${program}: ${command}`));
    expect(foreign, 'write the command as it runs in a clone (node plugin/parley-server.mjs ...)').toEqual([]);
    expect(await readFile(join(root, 'README.md'), 'utf8')).toMatch(/tasks need `parley` on their PATH[^.]*`npm link` puts it there/);
  });

  it('npm start --silent serves MCP over stdio with nothing but JSON-RPC on stdout', async () => {
    const setup = (await readmeShellCommands()).find((command) => command.startsWith('npm ci && '));
    const [command, ...args] = setup!.slice('npm ci && '.length).split(/\s+/);
    expect([command, ...args]).toEqual(['npm', 'start', '--silent']);
    const transport = new StdioClientTransport({ command: command!, args, cwd: root, env: { ...process.env, PARLEY_STATE_DIR: join(dir, 'state') } as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'readme-npm-start', version: '0' });
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('delib_start');
    } finally {
      await client.close();
    }
    // Without --silent npm prints "> parley-mcp@... start" on stdout, which the client cannot parse.
    expect(errors).toEqual([]);
  });

  it('dialogic analyze run.json', async () => {
    const run = await runAsWritten('node plugin/parley-server.mjs dialogic analyze run.json');
    expect(run.stdout).toMatch(/surviv/i);
  });

  it('debate analyze debate.json --format dot', async () => {
    const run = await runAsWritten('node plugin/parley-server.mjs debate analyze debate.json --format dot');
    expect(run.stdout).toMatch(/^\s*digraph\b/m);
  });

  it('report run.json --html run.html, debate.json, --compare', async () => {
    await runAsWritten('node plugin/parley-server.mjs report run.json --html run.html');
    expect(await readFile(join(dir, 'run.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    const markdown = await runAsWritten('node plugin/parley-server.mjs report debate.json');
    expect(markdown.stdout).toMatch(/^# /m);
    await runAsWritten('node plugin/parley-server.mjs report a.json b.json c.json --compare --html compare.html');
    const compare = await readFile(join(dir, 'compare.html'), 'utf8');
    for (const name of ['a.json', 'b.json', 'c.json']) expect(compare).toContain(name.replace('.json', ''));
  });

  it('claude mcp add with PARLEY_TOOLS=argumentation registers a server that serves the delib tools only', { timeout: 120_000 }, async () => {
    const command = 'claude mcp add parley -e PARLEY_TOOLS=argumentation -- node /path/to/parley/plugin/parley-server.mjs';
    expect(await readmeShellCommands()).toContain(command);
    const home = await createClaudeHome('http://127.0.0.1:9');
    homes.push(home);
    const args = command.replace('/path/to/parley/', `${root}/`).split(/\s+/).slice(1);
    const claude = (argv: string[]) => execa(claudeBin, argv, { cwd: home.cwd, env: home.env, extendEnv: false, reject: false, input: '', timeout: 60_000 });
    const added = await claude(args);
    expect(added.exitCode, added.stderr).toBe(0);
    expect((await claude(['mcp', 'list'])).stdout).toMatch(/^parley: node \S+\/plugin\/parley-server\.mjs - ✔ Connected$/m);
    const got = await claude(['mcp', 'get', 'parley']);
    expect(got.stdout).toMatch(/PARLEY_TOOLS=argumentation/);
    // What Claude Code then launches: the same command with that environment.
    const transport = new StdioClientTransport({ command: 'node', args: [bundle], env: { ...process.env, PARLEY_STATE_DIR: join(dir, 'state'), PARLEY_TOOLS: 'argumentation' } as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'readme-profile', version: '0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toMatch(/^delib_/);
    } finally {
      await client.close();
    }
  });
});
