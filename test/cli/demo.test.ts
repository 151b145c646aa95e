/**
 * `parley demo` through the built CLI (dist/cli/main.js) as a new user runs it: no key, no network,
 * the real codex binary for the argumentation part, and nothing left running afterwards (checked by
 * pid and by port). `parley demo --serve` as an openai-compatible model for a real `parley debate`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from './run-parley.js';

const REPO = resolve(import.meta.dirname, '../..');
const ENTRY = join(REPO, 'dist/cli/main.js');
const CODEX_BIN = join(REPO, 'node_modules/.bin/codex');

interface Started {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
}

const children: ChildProcess[] = [];
const folders: string[] = [];
beforeAll(() => {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first (npm test does it)`);
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A work folder (the demo's cwd) and a TMPDIR of its own, so every process the demo starts can be found. */
async function sandbox(): Promise<{ work: string; tmp: string }> {
  const root = await mkdtemp(join(tmpdir(), 'parley-demo-test-'));
  folders.push(root);
  await mkdir(join(root, 'work'));
  await mkdir(join(root, 'tmp'));
  return { work: join(root, 'work'), tmp: join(root, 'tmp') };
}

function start(args: string[], cwd: string, env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, [ENTRY, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, out: () => out, err: () => err, exit };
}

/** Live processes run with a CODEX_HOME the demo made under this TMPDIR: codex and whatever it started (Linux /proc). */
function demoCodexProcesses(tmp: string): number[] {
  const needle = `CODEX_HOME=${tmp}/parley-demo-codex-`;
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

// A zombie has exited: only its parent's reaping is left, which is not the demo's to do.
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
};

/** Whether anything accepts a connection on 127.0.0.1:port. */
const listening = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });

async function until(condition: () => boolean, what: string, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const portIn = (text: string): number => Number(/http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(text)?.[1]);

describe('parley demo (the built CLI, the real codex binary)', () => {
  it('runs a debate, a dialogic run and a deliberation against the local demo model, writes their reports, exits 0 and leaves nothing running', async () => {
    const { work, tmp } = await sandbox();
    // As the README's first lines run it: no --out, so the runs and reports go to parley-demo/.
    const demo = start(['demo'], work, { ...process.env, TMPDIR: tmp, PARLEY_CODEX_PATH: CODEX_BIN });
    const seen = new Set<number>();
    const watch = setInterval(() => demoCodexProcesses(tmp).forEach((pid) => seen.add(pid)), 100);
    const code = await demo.exit;
    clearInterval(watch);
    expect(code, demo.err()).toBe(0);

    const stdout = demo.out();
    expect(stdout).toContain("answered by parley's local demo model. It is canned text chosen by rules, not a language model");
    expect(stdout).toMatch(/^debate {10}3 agents, 3 rounds, stopped by unanimity; final answer "no", 2 agent\(s\) changed their answer$/m);
    expect(stdout).toMatch(/^dialogic {8}14 terms proposed, 11 agreed, 3 dropped; stopped by bilateral exhaustion after 2 cycle\(s\)$/m);
    expect(stdout).toMatch(/^argumentation {3}3 iterations, 3 Codex turns; 4 agreed, 1 dismissed, 0 unresolved$/m);
    const reports = [...stdout.matchAll(/^ {2}(parley-demo\/\S+\.html)$/gm)].map((m) => m[1]);
    expect(reports).toEqual(['parley-demo/debate.html', 'parley-demo/dialogic.html', 'parley-demo/argumentation.html']);
    // What to try next is printed as the demo was started (node and its entry: no `parley` is on PATH in a
    // clone), and runs as printed, in a shell, where it was printed (issue 28, item 5).
    const next = stdout.slice(stdout.indexOf('What to try next:')).split('\n').slice(1).filter((line) => line.startsWith('  ')).map((line) => line.trim().split(/ {2,}/)[0]!);
    expect(next).toEqual([`node ${ENTRY} report parley-demo/debate.json`, `node ${ENTRY} demo --serve --port 8700`, `node ${ENTRY} doctor --model openai:gpt-4.1`, `node ${ENTRY} --help`]);
    const asPrinted = (command: string) => runProcess('sh', ['-c', command], { cwd: work, env: { ...process.env, TMPDIR: tmp } });
    const report = await asPrinted(next[0]!);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/^# Debate\n/);
    const help = await asPrinted(next[3]!);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: parley /);

    const html = async (name: string) => readFile(join(work, 'parley-demo', name), 'utf8');
    const debate = await html('debate.html');
    expect(debate).toContain('Should a five-person startup split its monolith into microservices this year?');
    expect(debate).toMatch(/#demo-optimist[\s\S]*#demo-skeptic[\s\S]*#demo-pragmatist/);
    expect(debate).toContain('Five people cannot staff the on-call');
    const dialogic = await html('dialogic.html');
    expect(dialogic).toContain('Prompt horizon');
    expect(dialogic).toContain('Agreed dictionary (11)');
    const argumentation = await html('argumentation.html');
    expect(argumentation).toContain('Should we put a Redis cache in front of Postgres for our product catalogue?');
    expect(argumentation).toContain('Agreed (4)');
    expect(argumentation).toMatch(/<b>P1\.2<\/b> with the default settings Postgres keeps a catalogue of a few MB in memory/);
    expect(argumentation).toContain('What p95 latency does the catalogue endpoint show in production today?');
    expect(argumentation).toContain('This is parley&#39;s demo: Codex was answered by parley&#39;s local demo model');
    for (const page of [debate, dialogic, argumentation]) expect(page).not.toMatch(/<script/i);

    // Codex ran (through the demo's own CODEX_HOME); nothing of it, and not the demo model, is left.
    expect(seen.size).toBeGreaterThan(0);
    // Codex's sandbox helpers may take a moment to exit after the demo did: a short grace, then none may be left.
    await until(() => [...seen].filter(alive).length === 0, 'the codex processes to exit', 5000).catch(() => undefined);
    expect(demoCodexProcesses(tmp)).toEqual([]);
    expect([...seen].filter(alive)).toEqual([]);
    expect(await listening(portIn(demo.err()))).toBe(false);
    expect((await readdir(tmp)).filter((name) => name.startsWith('parley-demo-codex-'))).toEqual([]);
  }, 300_000);

  it('Ctrl-C while Codex is answering: exits 130, and the codex processes, the demo model and its CODEX_HOME are gone', async () => {
    const { work, tmp } = await sandbox();
    const demo = start(['demo', '--out', 'stopped'], work, { ...process.env, TMPDIR: tmp, PARLEY_CODEX_PATH: CODEX_BIN });
    await until(() => demoCodexProcesses(tmp).length > 0 || demo.child.exitCode !== null, 'a codex process of the demo', 240_000);
    const running = demoCodexProcesses(tmp);
    expect(running.length, demo.err()).toBeGreaterThan(0);
    demo.child.kill('SIGINT');
    expect(await demo.exit).toBe(130);
    // The watchdog and the process-group kill may need a moment after parley is gone.
    await until(() => demoCodexProcesses(tmp).length === 0 && !running.some(alive), 'the codex processes to end', 30_000);
    expect(await listening(portIn(demo.err()))).toBe(false);
    expect((await readdir(tmp)).filter((name) => name.startsWith('parley-demo-codex-'))).toEqual([]);
    expect(demo.err()).toMatch(/interrupted by SIGINT/);
  }, 300_000);

  it('without codex: the debate and dialogic reports, and a plain word that the argumentation part was skipped and how to get codex', async () => {
    const { work, tmp } = await sandbox();
    const demo = start(['demo', '--out', 'no-codex'], work, { ...process.env, TMPDIR: tmp, PARLEY_CODEX_PATH: join(tmp, 'nowhere', 'codex') });
    expect(await demo.exit, demo.err()).toBe(0);
    expect(demo.out()).toMatch(/^argumentation {3}skipped: codex binary not found at .*nowhere\/codex\. The consultee is Codex CLI: install it \(npm install -g @openai\/codex, or set PARLEY_CODEX_PATH\)/m);
    expect(await readdir(join(work, 'no-codex'))).toEqual(expect.arrayContaining(['debate.html', 'dialogic.html']));
    expect(existsSync(join(work, 'no-codex', 'argumentation.html'))).toBe(false);
  }, 300_000);

  it('refuses an --out folder holding other files, and touches nothing in it', async () => {
    const { work } = await sandbox();
    await mkdir(join(work, 'mine'));
    await writeFile(join(work, 'mine', 'notes.txt'), 'keep me');
    const ran = await runProcess(process.execPath, [ENTRY, 'demo', '--out', 'mine'], { cwd: work, timeoutMs: 120_000 });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/already holds files that are not a parley demo's: give --out a new or empty folder/);
    expect(await readdir(join(work, 'mine'))).toEqual(['notes.txt']);
  }, 180_000);
});

describe('parley demo --serve', () => {
  it('is an openai-compatible endpoint a real `parley debate` runs against, until Ctrl-C', async () => {
    const { work } = await sandbox();
    const served = start(['demo', '--serve'], work, process.env);
    await until(() => /listening on http/.test(served.out()) || served.child.exitCode !== null, 'the demo model to listen', 120_000);
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(served.out())?.[1];
    expect(base, served.err()).toBeDefined();
    // Its example commands start as it was started (issue 28, item 5).
    expect(served.out()).toContain(`\n  node ${ENTRY} debate "Should we rewrite the billing service in Rust?"`);
    expect(served.out()).toContain(`\n  node ${ENTRY} dialogic --model-a `);
    const agent = (name: string) => `openai-compatible:${base}#${name}`;
    const debate = await runProcess(
      process.execPath,
      [ENTRY, 'debate', 'Should we rewrite the billing service in Rust?', '--options', 'yes,no', '--rounds', '2', '--agent', agent('demo-optimist'), '--agent', agent('demo-skeptic'), '--out', 'served.json'],
      { cwd: work, timeoutMs: 180_000 },
    );
    expect(debate.code, debate.stderr).toBe(0);
    const transcript = JSON.parse(await readFile(join(work, 'served.json'), 'utf8'));
    const turns = transcript.rounds.flatMap((round: { turns: unknown[] }) => round.turns);
    expect(turns.map((turn: { status: string }) => turn.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(transcript.rounds[0].turns.map((turn: { record: { answer: string } }) => turn.record.answer).sort()).toEqual(['no', 'yes']);
    expect(turns.some((turn: { record: { references: unknown[] } }) => turn.record.references.length > 0)).toBe(true);

    served.child.kill('SIGINT');
    expect(await served.exit).toBe(0);
    expect(served.out()).toMatch(/stopped after [4-9]\d* request\(s\)/);
    expect(await listening(portIn(served.out()))).toBe(false);
  }, 300_000);

  it('names a port in use instead of failing obscurely', async () => {
    const { work } = await sandbox();
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const port = (busy.address() as { port: number }).port;
    try {
      const ran = await runProcess(process.execPath, [ENTRY, 'demo', '--serve', '--port', String(port)], { cwd: work, timeoutMs: 120_000 });
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain(`parley demo: port ${port} on 127.0.0.1 is in use: choose another with --port`);
    } finally {
      busy.close();
    }
  }, 180_000);
});
