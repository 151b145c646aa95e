import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunResult, runFiles } from '../../../protocols/sweep/index.js';
import type { SweepMatrix } from '../../../schemas/sweep.js';
import { openAuditLog, type AuditRecord } from '../../../state/audit-log.js';
import type { ScriptedChat } from '../../doubles/scripted-chat.js';
import { debateMatrix, dialogicMatrix, runOfRequest, startDebateWorld, startDialogicWorld, writeMatrixFile } from './worlds.js';

const work = await mkdtemp(join(tmpdir(), 'parley-sweep-kill-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

const ENTRY = join(import.meta.dirname, '..', '..', '..', 'cli', 'main.ts');

function startCli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { cwd: join(import.meta.dirname, '..', '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** The ok call records of a run's audit log: the steps it finished. */
async function finishedCalls(dir: string, id: string): Promise<AuditRecord[]> {
  const records = await openAuditLog(runFiles(dir, id).audit).readAll();
  return records.filter((record) => record.type === 'model_call' && record.status === 'ok');
}

const stepOf = (record: AuditRecord) => String(record.key ?? record.step);
const modelOf = (record: AuditRecord) => String(record.backend).slice(String(record.backend).lastIndexOf('#') + 1);

async function killMidway(matrix: SweepMatrix, chat: ScriptedChat, name: string) {
  const { path, plans } = await writeMatrixFile(matrix);
  const out = join(work, name);
  const args = ['sweep', path, '--out', out, '--concurrency', '2', '--progress', 'plain'];
  const first = startCli(args);
  // Kill once a run has finished and another has finished steps but not the run.
  const state = async () => {
    const done: string[] = [];
    const partial: string[] = [];
    for (const plan of plans) {
      if ((await readRunResult(out, plan.id))?.status === 'ok') done.push(plan.id);
      else if ((await finishedCalls(out, plan.id)).length > 0) partial.push(plan.id);
    }
    return { done, partial };
  };
  for (;;) {
    const now = await state();
    if (now.done.length >= 1 && now.partial.length >= 1) break;
    if (now.done.length === plans.length) throw new Error(`the sweep finished before it could be killed:\n${first.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  first.child.kill('SIGKILL');
  await first.exited;
  const atKill = await state();
  const requestsAtKill = chat.requests.length;
  const stepsAtKill = new Map<string, AuditRecord[]>();
  for (const plan of plans) stepsAtKill.set(plan.id, await finishedCalls(out, plan.id));

  const second = startCli(args);
  expect(await second.exited, second.output()).toBe(0);
  return { out, plans, atKill, requestsAtKill, stepsAtKill, rerunOutput: second.output() };
}

async function assertNothingRepeated(chat: ScriptedChat, killed: Awaited<ReturnType<typeof killMidway>>) {
  const { out, plans, atKill, requestsAtKill, stepsAtKill } = killed;
  expect(atKill.done.length).toBeLessThan(plans.length);
  const runOf = runOfRequest(plans);
  const afterKill = chat.requests.slice(requestsAtKill);
  // No request after the kill belongs to a run finished before it ...
  expect(afterKill.filter((req) => atKill.done.includes(runOf(req)))).toEqual([]);
  // ... nor repeats a step that run had finished (same model, same prompt).
  for (const req of afterKill) {
    const prompt = req.messages.at(-1)?.content;
    const repeated = (stepsAtKill.get(runOf(req)) ?? []).filter((record) => record.prompt === prompt && modelOf(record) === req.model);
    expect(repeated.map(stepOf), `request #${req.index} of ${runOf(req)}`).toEqual([]);
  }
  // The interrupted runs were continued, not started over: only their unfinished steps were sent.
  for (const id of atKill.partial) {
    const sentAfter = afterKill.filter((req) => runOf(req) === id).length;
    const total = (await finishedCalls(out, id)).length;
    expect(sentAfter).toBe(total - (stepsAtKill.get(id)?.length ?? 0));
  }
  // Every step of every run finished exactly once, and every request the server saw is accounted
  // for by a logged call, except those cut off in flight by the kill.
  let logged = 0;
  for (const plan of plans) {
    expect((await readRunResult(out, plan.id))?.status).toBe('ok');
    const steps = (await finishedCalls(out, plan.id)).map(stepOf);
    expect(new Set(steps).size).toBe(steps.length);
    logged += steps.length;
  }
  const lostInFlight = chat.requests.length - logged;
  expect(lostInFlight).toBeGreaterThanOrEqual(0);
  return lostInFlight;
}

describe('a sweep killed with SIGKILL and run again', () => {
  it('dialogic 2 x 2 x 2: skips finished runs and repeats no finished step', async () => {
    const chat = await startDialogicWorld(15);
    try {
      const killed = await killMidway(dialogicMatrix(chat), chat, 'dialogic');
      expect(killed.plans).toHaveLength(8);
      const lost = await assertNothingRepeated(chat, killed);
      // At most two runs in flight, each with at most two concurrent calls.
      expect(lost).toBeLessThanOrEqual(4);
      expect(killed.rerunOutput).toMatch(new RegExp(`already finished ${killed.atKill.done.length}`));
    } finally {
      await chat.close();
    }
  }, 120_000);

  it('debate N x PID: skips finished runs and repeats no finished step', async () => {
    const chat = await startDebateWorld(15);
    try {
      const killed = await killMidway(debateMatrix(chat, { repetitions: 2 }), chat, 'debate');
      expect(killed.plans).toHaveLength(8);
      const lost = await assertNothingRepeated(chat, killed);
      expect(lost).toBeLessThanOrEqual(6);
    } finally {
      await chat.close();
    }
  }, 120_000);
});
