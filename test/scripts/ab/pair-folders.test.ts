import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUESTIONS_DIR } from '../../../scripts/ab/pairs.js';
import { runScript } from './ab-process.js';

const root = mkdtempSync(join(tmpdir(), 'ab-pairs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every file under a folder, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('new-pair.ts and keep-pair.ts', { timeout: 60_000 }, () => {
  const pair = join(root, 'bigint-ids');

  it('new-pair lays out the pair and writes each mind\'s instructions outside it', async () => {
    const { exitCode, stdout, stderr } = await runScript('ab/new-pair.ts', ['--root', root, '--question', 'bigint-ids']);
    expect(exitCode, stderr).toBe(0);
    expect(readFileSync(join(pair, 'question.md'), 'utf8')).toBe(readFileSync(join(QUESTIONS_DIR, 'bigint-ids/question.md'), 'utf8'));
    for (const dir of ['parley', 'plain', 'judge']) expect(existsSync(join(pair, dir)), dir).toBe(true);
    expect(filesUnder(pair)).toEqual(['question.md']);
    expect(filesUnder(join(root, 'instructions/bigint-ids'))).toEqual(['judge-2.md', 'judge.md', 'parley-consultee.md', 'parley-orchestrator.md', 'plain-consultee.md', 'plain-orchestrator.md']);
    expect(stdout).toContain(`scripts/real-minds/relay-responses.ts --dir ${join(pair, 'parley')}`);
    expect(stdout).toContain(`scripts/real-minds/mcp-session.ts --dir ${join(pair, 'parley')}`);
    expect(stdout).toContain(`scripts/real-minds/relay-responses.ts --dir ${join(pair, 'plain')}`);
  });

  it('new-pair refuses a pair that exists, a question that does not, and a root too long for the socket', async () => {
    writeFileSync(join(pair, 'parley/answer.md'), 'kept');
    const again = await runScript('ab/new-pair.ts', ['--root', root, '--question', 'bigint-ids']);
    expect([again.exitCode, again.stderr]).toEqual([2, `${pair} exists: choose another root, or keep and remove the earlier pair first`]);
    expect(readFileSync(join(pair, 'parley/answer.md'), 'utf8')).toBe('kept');
    const unknown = await runScript('ab/new-pair.ts', ['--root', root, '--question', 'no-such-question']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('no question no-such-question in');
    const long = await runScript('ab/new-pair.ts', ['--root', join(root, 'x'.repeat(90)), '--question', 'bigint-ids']);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toContain('is too long for a unix socket: choose a shorter root');
  });

  it('keep-pair keeps the transcripts, answers and verdicts, and leaves out what only this machine needs', async () => {
    const files: Record<string, string> = {
      'parley/001.prompt.md': 'p', 'parley/001.reply.md': 'r', 'parley/002.schema.json': '{}', 'parley/002.prompt.md': 'p', 'parley/002.abandoned.md': 'a',
      'parley/calls.jsonl': '{}', 'parley/transcript.jsonl': '{}', 'parley/times.json': '{}', 'parley/notes.md': 'n', 'parley/consultee-notes.md': 'c',
      'parley/env.json': '{}', 'parley/mcp.sock': '', 'parley/server.stderr.log': 'log', 'parley/scratch.js': 'x',
      'parley/state/deliberations/d-20261128-184941-ab0004.json': '{}', 'parley/state/deliberations/d-20261128-184941-ab0004.audit.jsonl': '{}',
      'parley/state/deliberations/d-20261128-184941-ab0004.report.md': 'r', 'parley/state/deliberations/store.lock': '',
      'plain/001.prompt.md': 'p', 'plain/001.reply.md': 'r', 'plain/calls.jsonl': '{}', 'plain/answer.md': 'a', 'plain/env.json': '{}',
      'judge/packet.md': 'p', 'judge/key.json': '{}', 'judge/verdict.json': '{}', 'judge/packet-2.md': 'p', 'judge/key-2.json': '{}', 'judge/verdict-2.json': '{}', 'judge/verdict.schema.json': '{}',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(pair, file, '..'), { recursive: true });
      writeFileSync(join(pair, file), text);
    }
    const to = join(root, 'kept');
    const { exitCode, stdout, stderr } = await runScript('ab/keep-pair.ts', ['--pair', pair, '--name', '2026-11-28-bigint-ids', '--to', to]);
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toBe(`kept 25 files in ${join(to, '2026-11-28-bigint-ids')}`);
    expect(filesUnder(join(to, '2026-11-28-bigint-ids'))).toEqual([
      'judge/key-2.json', 'judge/key.json', 'judge/packet-2.md', 'judge/packet.md', 'judge/verdict-2.json', 'judge/verdict.json',
      'parley/001.prompt.md', 'parley/001.reply.md', 'parley/002.abandoned.md', 'parley/002.prompt.md', 'parley/002.schema.json',
      'parley/answer.md', 'parley/calls.jsonl', 'parley/consultee-notes.md', 'parley/notes.md',
      'parley/record/d-20261128-184941-ab0004.audit.jsonl', 'parley/record/d-20261128-184941-ab0004.json', 'parley/record/d-20261128-184941-ab0004.report.md',
      'parley/times.json', 'parley/transcript.jsonl',
      'plain/001.prompt.md', 'plain/001.reply.md', 'plain/answer.md', 'plain/calls.jsonl',
      'question.md',
    ]);
    const twice = await runScript('ab/keep-pair.ts', ['--pair', pair, '--name', '2026-11-28-bigint-ids', '--to', to]);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('exists: give another --name');
  });
});
