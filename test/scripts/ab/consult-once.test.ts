import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { makeCodexHome } from '../../doubles/codex-home.js';
import { startScriptedResponses, type ResponsesScript } from '../../doubles/scripted-responses.js';
import { repoRoot } from './ab-process.js';
import { startRelayResponses, until } from '../relay-responses-process.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ab-once-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** consult-once.ts as the plain orchestrator runs it; the prompt goes in a file beside the arm's folder. */
function consultOnce(dir: string, prompt: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'ab-prompt-')), 'ask.md');
  cleanups.push(() => rmSync(join(file, '..'), { recursive: true, force: true }));
  writeFileSync(file, prompt);
  return execa('node', ['--import', 'tsx', 'scripts/ab/consult-once.ts', '--dir', dir, '--prompt-file', file], { cwd: repoRoot, reject: false });
}

const calls = (dir: string) => readFileSync(join(dir, 'calls.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));

/** The arm's folder as relay-responses.ts leaves it, but with a scripted server of the test's own behind Codex. */
async function scriptedArm(script: ResponsesScript) {
  const server = await startScriptedResponses(script);
  const home = await makeCodexHome(server.baseUrl);
  cleanups.push(() => server.close(), () => home.cleanup());
  const dir = folder();
  writeFileSync(join(dir, 'env.json'), JSON.stringify({ CODEX_HOME: home.codexHome, TMPDIR: String(home.env.TMPDIR), PARLEY_CODEX_PATH: join(repoRoot, 'node_modules/.bin/codex'), PARLEY_CONSULT_TIMEOUT_MS: '60000' }));
  return { dir, server };
}

// Each test runs the real codex binary: generous bounds for a loaded machine, never a measured time.
describe('consult-once.ts: the plain arm asks the real Codex once', { timeout: 180_000 }, () => {
  it('through the relay: the prompt reaches the consultee\'s folder, its reply is printed, the call is logged, a second consult is refused', async () => {
    const dir = folder();
    const relay = await startRelayResponses(dir);
    cleanups.push(() => relay.stop());
    const prompt = 'Should we keep our 64-bit ids as strings?\nWe run Node 20.';
    const consult = consultOnce(dir, prompt);
    await until(() => existsSync(join(dir, '001.prompt.md')));
    expect(readFileSync(join(dir, '001.prompt.md'), 'utf8')).toBe(prompt);
    writeFileSync(join(dir, '001.reply.tmp'), 'Keep strings.\nBrand them.');
    renameSync(join(dir, '001.reply.tmp'), join(dir, '001.reply.md'));
    const result = await consult;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('Keep strings.\nBrand them.');
    expect(calls(dir)).toEqual([{ i: 1, tool: 'consult-once', argsBytes: Buffer.byteLength(prompt), resultBytes: 25, isError: false, ms: expect.any(Number) }]);

    const again = await consultOnce(dir, 'One more question.');
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toBe(`Codex was already consulted once in ${dir} (see calls.jsonl): this setup asks Codex once`);
    expect(existsSync(join(dir, '002.prompt.md'))).toBe(false);
    expect(calls(dir)).toHaveLength(1);
  });

  it('read-only, in an empty folder removed afterwards, with the arm\'s folder hidden from Codex\'s commands', async () => {
    const { dir, server } = await scriptedArm([{ text: 'an answer' }]);
    const result = await consultOnce(dir, 'the question');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('an answer');
    const sent = JSON.stringify(server.requests[0]?.body.input);
    expect(sent).toContain('the question');
    expect(sent).toContain('`sandbox_mode` is `read-only`');
    const cwd = /<cwd>([^<]+)<\/cwd>/.exec(sent)?.[1];
    expect(cwd).toMatch(/\/ab-empty-[^/]+$/);
    expect(existsSync(cwd!)).toBe(false);
    expect(sent).toContain(`<entry access=\\"deny\\" escalatable=\\"false\\"><path>${dir}</path></entry>`);
  });

  it('a failed consult: a clear error, logged as one, and a retry allowed', async () => {
    const { dir } = await scriptedArm(() => ({ status: 400, errorBody: 'the model refuses this request' }));
    const result = await consultOnce(dir, 'the question');
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^codex failed: /);
    expect(calls(dir)).toEqual([expect.objectContaining({ i: 1, tool: 'consult-once', isError: true })]);
    const retry = await consultOnce(dir, 'the question');
    expect(retry.stderr).not.toContain('already consulted');
    expect(calls(dir)).toHaveLength(2);
  });

  it('refuses to start without the relay\'s env.json, or with an empty prompt', async () => {
    const dir = folder();
    const noRelay = await consultOnce(dir, 'the question');
    expect(noRelay.exitCode).toBe(2);
    expect(noRelay.stderr).toContain(`${join(dir, 'env.json')} is missing: start the relay first`);
    writeFileSync(join(dir, 'env.json'), '{}');
    const empty = await consultOnce(dir, ' \n');
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('is empty: write what you want to ask Codex');
    expect(existsSync(join(dir, 'calls.jsonl'))).toBe(false);
  });
});
