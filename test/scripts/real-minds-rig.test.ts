/**
 * The parley arm's rig as the A/B README runs it: relay-responses.ts, mcp-session.ts (the built
 * server, dist/) and mcp-call.ts as real processes, the real codex binary between them, and a whole
 * quick deliberation: the test writes Codex's reply file as the consultee would and the tool calls as
 * the orchestrator would. Then summary.ts reads what it cost.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayResponses, until, watchFolder } from './relay-responses-process.js';

const repoRoot = resolve(import.meta.dirname, '../..');

const dir = mkdtempSync(join(tmpdir(), 'real-minds-rig-'));
let relay: Awaited<ReturnType<typeof startRelayResponses>>;
let session: ReturnType<typeof execa>;
beforeAll(async () => {
  relay = await startRelayResponses(dir);
  session = execa('node', ['--import', 'tsx', 'scripts/real-minds/mcp-session.ts', '--dir', dir], { cwd: repoRoot, all: true, buffer: false, reject: false });
  await until(() => existsSync(join(dir, 'mcp.sock')));
}, 120_000);
afterAll(async () => {
  session?.kill('SIGTERM');
  await session;
  await relay?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const call = (tool: string, args: object) => execa('node', ['--import', 'tsx', 'scripts/real-minds/mcp-call.ts', '--dir', dir, tool, JSON.stringify(args)], { cwd: repoRoot, reject: false });
const jsonl = (file: string) => readFileSync(join(dir, file), 'utf8').trim().split('\n').map((line) => JSON.parse(line));

// Real processes on a shared machine: generous bounds, never a measured time.
describe('the real-minds rig, one whole deliberation', { timeout: 240_000 }, () => {
  it('starts, consults through the relay, judges, ends; every call logged with what the orchestrator was shown', async () => {
    const folderEvents = watchFolder(dir);
    const start = call('delib_start', { mode: 'quick', framing: 'compare', question: 'Keep 64-bit ids as strings, or BigInt?', material: 'A: strings\nB: BigInt', consult: { cwd: 'empty' } });
    await until(() => existsSync(join(dir, '001.prompt.md')));
    expect(readFileSync(join(dir, '001.prompt.md'), 'utf8')).toContain('Keep 64-bit ids as strings, or BigInt?');
    writeFileSync(join(dir, '001.reply.tmp'), 'Verdict: A.\n\n1. EVIDENCE: `node -e "JSON.stringify({a: 1n})"` throws TypeError: Do not know how to serialize a BigInt.\n');
    renameSync(join(dir, '001.reply.tmp'), join(dir, '001.reply.md'));
    const started = await start;
    folderEvents.close();
    // The prompt appeared whole, renamed into place (one 'rename', no 'change'): a consultee never reads half of one.
    expect(folderEvents.events.filter(([, name]) => name === '001.prompt.md').map(([type]) => type)).toEqual(['rename']);
    expect(started.exitCode, started.stderr).toBe(0);
    const result = JSON.parse(started.stdout);
    expect(result.consult.status).toBe('done');
    expect(result.consult.reply.points.map((p: { id: string }) => p.id)).toEqual(['P1.1']);

    // A long judgment goes through --args-file: an apostrophe in it would end a shell's '...' argument.
    const argsFile = join(dir, 'judge-args.json');
    writeFileSync(argsFile, JSON.stringify({
      deliberationId: result.deliberationId,
      points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'empirical', evidenceType: 'execution', evidence: "same TypeError on Node 20's JSON.stringify" }],
      phase: { advance: true },
      synthesis: { recommendation: 'Keep ids as strings on the wire.', confidence: 'high', caveats: ['none'] },
    }));
    const judged = await execa('node', ['--import', 'tsx', 'scripts/real-minds/mcp-call.ts', '--dir', dir, 'delib_judge', '--args-file', argsFile], { cwd: repoRoot, reject: false });
    expect(judged.exitCode, judged.stderr).toBe(0);
    expect(JSON.parse(judged.stdout)).toMatchObject({ at: expect.stringContaining('terminated'), next: [] });

    expect(jsonl('calls.jsonl').map((r) => [r.i, r.tool, r.isError])).toEqual([[1, 'delib_start', false], [2, 'delib_judge', false]]);
    const transcript = jsonl('transcript.jsonl');
    expect(transcript.map((r) => [r.i, r.tool])).toEqual([[1, 'delib_start'], [2, 'delib_judge']]);
    expect(transcript[0].args.question).toBe('Keep 64-bit ids as strings, or BigInt?');
    expect(transcript[1].text).toBe(judged.stdout);
    expect(transcript[1].args.points[0].evidence).toBe("same TypeError on Node 20's JSON.stringify");

    const summary = await execa('node', ['--import', 'tsx', 'scripts/real-minds/summary.ts', '--dir', dir], { cwd: repoRoot });
    expect(summary.stdout).toContain('tool calls:          2 (0 errors)');
    expect(summary.stdout).toMatch(/codex turns:\s+1 \(prompt bytes \d+, reply bytes 119, abandoned 0\)/);
  });
});
