import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { terminalHint } from '../../mcp-server/stdio.js';
import { startScriptedChat } from '../doubles/scripted-chat.js';
import { FOUR_AGENT_DEBATE, debaterScript } from '../protocols/debate/scripts.js';
import { dialogicMatrix, startDialogicWorld, writeMatrixFile } from '../protocols/sweep/worlds.js';
import { PARLEY_ARGS, runParley } from './run-parley.js';
import { closedPort } from '../doubles/http-helpers.js';

/** The CLI from its sources, as a child process: what a person at a shell sees. */
const work = await mkdtemp(join(tmpdir(), 'parley-operator-'));
afterAll(async () => rm(work, { recursive: true, force: true }));
const parley = (args: string[], input?: string) => runParley(args, { cwd: work, ...(input !== undefined && { input }) });

describe('parley serve: what a person at a terminal sees', () => {
  it('in a terminal, says it is an MCP server on stdio, how to connect a client, and that Ctrl-C quits; Ctrl-C does quit', async () => {
    // `exec`: script runs the command through $SHELL (dash in CI), which would otherwise stay in the
    // foreground group, take the Ctrl-C itself and exit 130 whatever parley does.
    const command = 'exec ' + [process.execPath, ...PARLEY_ARGS, 'serve'].map((part) => `'${part}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: work, stdio: ['pipe', 'pipe', 'pipe'] });
    let seen = '';
    const closed = new Promise<number | null>((done) => child.on('close', done));
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`no hint within 20 s: ${seen}`)), 20_000);
      child.stdout.on('data', (chunk) => {
        seen += chunk;
        if (!seen.includes('Ctrl-C quits')) return;
        clearTimeout(timer);
        ready();
      });
    });
    child.stdin.write('\x03');
    expect(await closed).toBe(0);
    expect(seen).toMatch(/an MCP server on stdio/);
    expect(seen).toMatch(/claude mcp add parley -- node \S+parley-server\.mjs/);
  });

  it('with stdin a pipe (an MCP client), prints nothing on stderr and answers JSON-RPC only', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const ran = await parley(['serve'], JSON.stringify(initialize) + '\n');
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout.split('\n')[0]!).id).toBe(1);
  });

  it('names the running entry in the connect command, or the README form from sources', () => {
    expect(terminalHint({ isTTY: false }, '/x/parley-server.mjs')).toBeUndefined();
    expect(terminalHint({ isTTY: true }, '/x/plugin/parley-server.mjs')).toMatch(/claude mcp add parley -- node \/x\/plugin\/parley-server\.mjs/);
    expect(terminalHint({ isTTY: true }, '/x/mcp-server/cli.ts')).toMatch(/node \/path\/to\/parley\/plugin\/parley-server\.mjs/);
  });
});

describe('parley help and unknown commands', () => {
  it('`parley help debate` prints the debate command\'s help and exits 0, like `parley debate --help`', async () => {
    const help = await parley(['help', 'debate']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: parley debate \[options\] \[command\] \[question\]/);
    expect(help.stdout).toContain('--agent <spec>');
    // The exit codes a script can branch on, the one for a debate whose turns failed among them (issue 28, item 2).
    expect(help.stdout).toMatch(/^Exit codes:\n {2}0 .*\n {2}1 .*\n {2}3 {6}the run finished, but some turns or judge calls failed: stderr names them/m);
    expect(help.stdout).toBe((await parley(['debate', '--help'])).stdout);
  });

  it('`parley frobnicate` says it is an unknown command and lists the commands, instead of passing it to serve', async () => {
    for (const args of [['frobnicate'], ['help', 'frobnicate']]) {
      const ran = await parley(args);
      expect(ran.code).toBe(1);
      // The help command is named as this parley was started (here from its sources), so it runs where it is printed.
      const invoked = ['node', ...PARLEY_ARGS].join(' ');
      expect(ran.stderr).toBe(`parley: unknown command 'frobnicate'. Commands: serve, tools, dialogic, debate, report, sweep, demo, doctor, decisions, help (${invoked} --help says what each does)\n`);
      expect(ran.stdout).toBe('');
    }
  });
});

describe('protocol runs from the shell', () => {
  it('a debate whose agents\' server is down exits 1 before it starts, naming each agent, the reason and the fix', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/v1`;
    const agents = ['a', 'b'].flatMap((model) => ['--agent', `openai-compatible:${url}#${model}`]);
    const ran = await parley(['debate', 'Ship it?', ...agents, '--rounds', '2', '--out', join(work, 'down.json')]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).not.toMatch(/stopped by/);
    expect(ran.stderr).toContain('parley debate: 2 models cannot be used, so the run did not start:');
    expect(ran.stderr).toContain(`agent 1 (openai-compatible:${url}#a): ${url} is unreachable (connection refused): start the server at ${url}, or correct the spec openai-compatible:${url}#a`);
    expect(ran.stderr).toContain(`agent 2 (openai-compatible:${url}#b): ${url} is unreachable`);
    expect(existsSync(join(work, 'down.run'))).toBe(false);
  });

  it('the run folder is <out without its extension>.run, as --help says', async () => {
    const chat = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    try {
      const agents = ['m1', 'm2', 'm3', 'm4'].flatMap((model) => ['--agent', `openai-compatible:${chat.baseUrl}#${model}`]);
      const ran = await parley(['debate', 'Should we ship the release today?', ...agents, '--rounds', '3', '--out', join(work, 'ship.json')]);
      expect(ran.code, ran.stderr).toBe(0);
      expect(existsSync(join(work, 'ship.run', 'audit.jsonl'))).toBe(true);
      expect(existsSync(join(work, 'ship.json.run'))).toBe(false);
    } finally {
      await chat.close();
    }
    for (const command of ['debate', 'dialogic']) expect((await parley([command, '--help'])).stdout.replace(/\s+/g, ' ')).toMatch(/default: <out without its extension>\.run/);
  });

  it('a sweep whose models run on 127.0.0.1 with no listed price costs $0, not "cost unknown"', async () => {
    const chat = await startDialogicWorld();
    try {
      const { path } = await writeMatrixFile(dialogicMatrix(chat, { repetitions: 1 }));
      const ran = await parley(['sweep', path, '--out', join(work, 'sweep'), '--progress', 'plain']);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).not.toMatch(/cost unknown/);
      expect(ran.stdout).toMatch(/\$0\.0000/);
    } finally {
      await chat.close();
    }
  });
});
