import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startScriptedChat, type ScriptedChat } from '../doubles/scripted-chat.js';
import { PARLEY_ARGS, runParley, runProcess } from './run-parley.js';
import { EXIT_RUN_HAD_FAILURES } from '../../cli/shared.js';

/** What a person at a shell sees of a protocol run: the CLI from its sources as a child process. */
const work = await mkdtemp(join(tmpdir(), 'parley-visibility-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

const run = (file: string, args: string[], env: NodeJS.ProcessEnv = process.env) => runProcess(file, args, { cwd: work, env });
const parley = (args: string[], env?: NodeJS.ProcessEnv) => runParley(args, { cwd: work, ...(env && { env }) });

/** This environment without any key, login or parley setting: a machine where nothing is set up. */
async function bareEnv(): Promise<NodeJS.ProcessEnv> {
  const root = await mkdtemp(join(tmpdir(), 'parley-bare-'));
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/(_API_KEY|_TOKEN|_KEY)$|^(CODEX|CLAUDE|ANTHROPIC|OPENAI|PARLEY)_/.test(name)) env[name] = value;
  }
  for (const dir of ['home', 'codex', 'claude']) await mkdir(join(root, dir));
  return { ...env, HOME: join(root, 'home'), CODEX_HOME: join(root, 'codex'), CLAUDE_CONFIG_DIR: join(root, 'claude') };
}

const reply = (answer: string) => ({ content: JSON.stringify({ answer, claims: [{ id: 'c1', text: `${answer} because.` }] }) });

describe('a debate run seen from the shell', () => {
  it("the README's debate with no keys and no logins exits 1 at once, naming each model and why", async () => {
    const env = await bareEnv();
    const ran = await parley(
      ['debate', 'Should we ship on Friday?', '--agent', 'openai:gpt-4.1', '--agent', 'claude:sonnet', '--agent', 'codex:gpt-5.2', '--rounds', '3', '--crit', 'openai:gpt-4.1', '--pid', '--out', join(work, 'readme.json')],
      env,
    );
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stderr).toMatch(/agent 1 \(openai:gpt-4\.1\): .*set OPENAI_API_KEY/);
    expect(ran.stderr).toMatch(/agent 2 \(claude:sonnet\): claude is not logged in: run `claude auth login`, or set ANTHROPIC_API_KEY/);
    expect(ran.stderr).toMatch(/agent 3 \(codex:gpt-5\.2\): codex is not logged in \(CODEX_HOME=[^)]+\): run `codex login`/);
    expect(ran.stderr).toMatch(/CRIT judge \(openai:gpt-4\.1\): .*OPENAI_API_KEY/);
    expect(existsSync(join(work, 'readme.json'))).toBe(false);
  });

  it('PARLEY_CLAUDE_PATH that is not an absolute path to a file is refused with a clear reason', async () => {
    const env = await bareEnv();
    const agents = ['--agent', 'claude:sonnet', '--agent', 'claude:opus', '--out', join(work, 'claude.json')];
    const missing = await parley(['debate', 'Q?', ...agents], { ...env, PARLEY_CLAUDE_PATH: '/nonexistent/claude' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/agent 1 \(claude:sonnet\): PARLEY_CLAUDE_PATH is \/nonexistent\/claude, which is not an existing file/);
    const relative = await parley(['debate', 'Q?', ...agents], { ...env, PARLEY_CLAUDE_PATH: 'bin/claude' });
    expect(relative.stderr).toMatch(/agent 2 \(claude:opus\): PARLEY_CLAUDE_PATH must be an absolute path/);
  });

  describe('against a scripted server whose agent 2 takes 4 s and which does not know agent 3\'s model', () => {
    let chat: ScriptedChat;
    let agents: string[];
    const slowDebate = async () => {
      chat ??= await startScriptedChat((req) =>
        req.model === 'm2' ? { ...reply('no'), delayMs: 4_000 } : req.model === 'm3' ? { status: 404, body: { error: { message: 'model m3 not found' } } } : reply('yes'),
      );
      agents = [`openai-compatible:${chat.baseUrl}#m1`, `openai-compatible:${chat.baseUrl}#m2`, `openai-compatible:${chat.baseUrl}#m3`];
      return ['debate', 'Ship it?', ...agents.flatMap((spec) => ['--agent', spec]), '--rounds', '1'];
    };
    afterAll(async () => chat?.close());

    it('with stderr a pipe: a "waiting on agent 2" line before its reply, and a failed call with its reason', async () => {
      const ran = await parley([...(await slowDebate()), '--out', join(work, 'pipe.json')]);
      // Agent 3's call failed: the debate finished, with the exit code that says so (issue 28, item 2).
      expect(ran.code, ran.stderr).toBe(EXIT_RUN_HAD_FAILURES);
      const waiting = ran.stderr.search(new RegExp(`^waiting on (.*, )?agent 2 \\(${escape(agents[1]!)}\\) \\d+ s(, |$)`, 'm'));
      expect(waiting, ran.stderr).toBeGreaterThanOrEqual(0);
      expect(waiting).toBeLessThan(ran.stderr.indexOf('Agent 2 ok'));
      expect(ran.stderr).toMatch(new RegExp(`agent 3 \\(${escape(agents[2]!)}\\) failed: m3 at http://127\\.0\\.0\\.1:\\d+ answered HTTP 404 Not Found: model m3 not found\\. Check the model name`));
    });

    it('under a terminal: one live line redrawn with the elapsed seconds of the call waited on', async () => {
      // `exec`: without it script's $SHELL (dash) stays in the foreground and takes the signals.
      const command = 'exec ' + [process.execPath, ...PARLEY_ARGS, ...(await slowDebate()), '--out', join(work, 'tty.json')].map((part) => `'${part}'`).join(' ');
      const ran = await run('script', ['-qfec', command, '/dev/null']);
      expect(ran.code, ran.stdout).toBe(EXIT_RUN_HAD_FAILURES);
      const redraws = ran.stdout.split('\r\x1b[2K').filter((line) => /waiting on agent 2 \(/.test(line));
      const seconds = new Set(redraws.map((line) => /agent 2 \([^)]*\) (\d+) s/.exec(line)?.[1]));
      expect(seconds.size, ran.stdout).toBeGreaterThanOrEqual(3);
      expect(redraws.every((line) => !line.includes('\n'))).toBe(true);
    });
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
