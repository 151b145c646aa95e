/**
 * README.md's Slurm section, run as written on a real single-node Slurm (slurm-cluster.ts): its
 * `sweep.sbatch` array job, its `merge.sbatch` and the two sbatch lines that submit them, read from
 * the README, over a debate sweep against parley's demo model. One task is requeued while it runs.
 * Checked: every run finished once; the requeued task's next attempt continued its shard without
 * repeating a finished run or a completed model call (counted at the demo model); its log kept both
 * attempts; the merged sweep equals the same sweep run in one process (run ids, outputs, measures).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { expandSweep, loadSweepMatrix, readRunResult, runFiles, seedForRun, selectShard } from '../../../protocols/sweep/index.js';
import type { SweepRunPlan } from '../../../schemas/sweep.js';
import { openAuditLog } from '../../../state/audit-log.js';
import { startDemoModel } from '../../../wrapper/demo-model/server.js';
import { findSlurmPrograms, startSlurm, waitFor, type SlurmCluster } from './slurm-cluster.js';

const REPO = resolve(import.meta.dirname, '../../..');
const ENTRY = join(REPO, 'dist/cli/main.js');
/** 4 tasks of 6 runs, 4 in flight: a task's last two runs start when its first ones finish. */
const SHARDS = 4;
const RUNS = 24;
const REQUEUED = 2;
/** Each call answered after this long, so a task is requeued with runs still to do. */
const LATENCY_MS = 1000;

const { missing } = findSlurmPrograms();
const notInstalled = missing.length ? `Slurm is not installed here (no ${missing.join(', ')}): apt-get install slurm-wlm munge` : undefined;

/** The README's sh block holding `marker`, exactly one. */
async function readmeBlock(marker: string): Promise<string> {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!).filter((block) => block.includes(marker));
  if (blocks.length !== 1) throw new Error(`README.md should have one sh block with "${marker}", it has ${blocks.length}`);
  return blocks[0]!;
}

/** The README's capitulation sweep as a debate among the demo model's three temperaments: `pairing` x `anonymise` x 6. */
function sweepFile(baseUrl: string): string {
  const agent = (name: string) => ({ model: `openai-compatible:${baseUrl}#demo-${name}` });
  return stringify({
    name: 'capitulation',
    protocol: 'debate',
    base: { question: 'Should a five-person startup split its monolith into microservices this year?', options: ['yes', 'no'], rounds: 4, stop: { onConvergence: false, onUnanimity: false } },
    matrix: {
      pairing: [
        { label: 'optimist-first', set: { agents: ['optimist', 'skeptic', 'pragmatist'].map(agent) } },
        { label: 'skeptic-first', set: { agents: ['skeptic', 'optimist', 'pragmatist'].map(agent) } },
      ],
      anonymise: [true, false],
    },
    repetitions: RUNS / 4,
  });
}

/** Per run of `plans`: model calls logged as done in `dir`, and whether the run finished. */
async function progressIn(dir: string, plans: readonly SweepRunPlan[]) {
  const calls = new Map<string, number>();
  const done: string[] = [];
  for (const plan of plans) {
    const records = await openAuditLog(runFiles(dir, plan.id).audit).readAll();
    calls.set(plan.id, records.filter((record) => record.type === 'model_call' && record.status === 'ok').length);
    if ((await readRunResult(dir, plan.id))?.status === 'ok') done.push(plan.id);
  }
  return { calls, done, partial: plans.filter((plan) => !done.includes(plan.id) && calls.get(plan.id)! > 0).map((plan) => plan.id) };
}

/** A run's output with its wall-clock fields blanked, and how many of its calls were replayed from its audit log. */
async function outputOf(dir: string, id: string): Promise<{ output: unknown; replayed: number }> {
  const text = await readFile(runFiles(dir, id).output, 'utf8');
  const replayed = text.match(/"replayed": true/g)?.length ?? 0;
  const output: unknown = JSON.parse(text.replace(/"(startedAt|finishedAt)": "[^"]*"/g, '"$1": "-"').replace(/"latencyMs": \d+(\.\d+)?/g, '"latencyMs": 0').replace(/"replayed": true/g, '"replayed": false'));
  return { output, replayed };
}

describe("README.md's Slurm array job", () => {
  it('runs a sweep as a requeued array and a dependent merge that equals the sweep run in one process', { timeout: 240_000 }, async (ctx) => {
    if (notInstalled) {
      // CI installs .ci/apt-packages: there the test must run, not skip.
      if (process.env.CI === 'true') throw new Error(`${notInstalled} (.ci/apt-packages lists them for CI)`);
      ctx.skip(notInstalled);
    }
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first (npm test does it)`);
    const root = await mkdtemp(join(tmpdir(), 'parley-slurm-'));
    const calls: string[] = [];
    let seedToRun = new Map<number, string>();
    const model = await startDemoModel({
      latencyMs: LATENCY_MS,
      onCall: ({ seed }) => calls.push(seedToRun.get(seed ?? -1) ?? `unknown seed ${seed}`),
    });
    let cluster: SlurmCluster | undefined;
    try {
      // `parley` as the tasks find it on PATH: the built CLI.
      const bin = join(root, 'bin');
      await mkdir(bin);
      if ([process.execPath, ENTRY].some((path) => path.includes("'"))) throw new Error('a path with a quote');
      await writeFile(join(bin, 'parley'), `#!/bin/sh\nexec '${process.execPath}' '${ENTRY}' "$@"\n`);
      await chmod(join(bin, 'parley'), 0o755);
      const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
      const work = join(root, 'work');
      const one = join(root, 'one');
      for (const dir of [work, one]) {
        await mkdir(dir);
        await writeFile(join(dir, 'capitulation.yaml'), sweepFile(model.baseUrl));
      }
      const plans = expandSweep(await loadSweepMatrix(join(work, 'capitulation.yaml')));
      expect(plans).toHaveLength(RUNS);
      seedToRun = new Map(plans.map((plan) => [seedForRun(plan.id), plan.id]));
      const sweepScript = await readmeBlock('#SBATCH --job-name=parley-sweep');
      // The premise of the requeue below: the README's array and runs in flight are what this sweep is sized for.
      expect(sweepScript).toMatch(new RegExp(`^#SBATCH --array=1-${SHARDS}$[\\s\\S]*--concurrency 4 `, 'm'));
      await writeFile(join(work, 'sweep.sbatch'), sweepScript);
      await writeFile(join(work, 'merge.sbatch'), await readmeBlock('#SBATCH --job-name=parley-merge'));
      const submit = await readmeBlock('sbatch --dependency=afterok');

      // The same sweep in one process, while the cluster starts.
      const [whole, slurm] = await Promise.all([
        execa('parley', ['sweep', 'capitulation.yaml', '--out', 'results', '--concurrency', String(RUNS), '--per-backend', String(RUNS), '--progress', 'plain'], { cwd: one, env, reject: false }),
        startSlurm(join(root, 'slurm')),
      ]);
      cluster = slurm;
      expect(whole.exitCode, whole.stderr).toBe(0);
      const oneProcessCalls = calls.splice(0);
      const perRun = (list: string[]) => Object.fromEntries(plans.map((plan) => [plan.id, list.filter((id) => id === plan.id).length]));
      const baseline = perRun(oneProcessCalls);
      expect(oneProcessCalls.filter((id) => id.startsWith('unknown'))).toEqual([]);

      const submitted = await execa('bash', ['-e', '-c', submit], { cwd: work, env: cluster.env(env), reject: false });
      expect(submitted.exitCode, submitted.stderr).toBe(0);
      const jobs = await cluster.job();
      const arrayId = jobs.find((job) => job.JobName === 'parley-sweep')?.ArrayJobId;
      const mergeId = jobs.find((job) => job.JobName === 'parley-merge')?.JobId;
      expect(arrayId && mergeId, JSON.stringify(jobs)).toBeTruthy();

      // Requeue one task once its shard has a finished run and a run partly done.
      const task = `${arrayId}_${REQUEUED}`;
      const shardDir = join(work, 'results', `shard-${REQUEUED}`);
      const shardPlans = selectShard(plans, { index: REQUEUED, count: SHARDS });
      await waitFor(`shard ${REQUEUED} to finish a run and start another`, async () => {
        const now = await progressIn(shardDir, shardPlans);
        return now.done.length > 0 && now.partial.length > 0 ? now : undefined;
      }, 120_000, 100);
      await cluster.run('scontrol', ['requeue', task]);
      await waitFor(`task ${task} to stop and wait to run again`, async () => {
        const [job] = await cluster!.job(task);
        return job?.JobState === 'PENDING' && job.Restarts === '1' ? true : undefined;
      }, 60_000, 100);
      // Between the two attempts: nothing of this shard runs.
      const callsAtRequeue = calls.length;
      const atRequeue = await progressIn(shardDir, shardPlans);
      expect((await cluster.job(task))[0]?.JobState, 'the second attempt began before the first was counted').toBe('PENDING');
      expect(atRequeue.done.length, 'the shard finished before the requeue: the demo model must answer more slowly').toBeLessThan(shardPlans.length);
      // While the task waits to run again: the one-process sweep's summary, to compare with the merge job's.
      const summarized = execa('parley', ['sweep', 'summarize', 'results', '--by', 'pairing,anonymise'], { cwd: one, env, reject: false });

      const merged = await waitFor('the merge job to end', async () => {
        const [job] = await cluster!.job(mergeId!);
        if (job?.Reason === 'DependencyNeverSatisfied') throw new Error(`the merge job will never run: ${JSON.stringify(job)}`);
        return job && ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT'].includes(job.JobState!) ? job : undefined;
      }, 150_000, 500).catch(async (error: Error) => {
        throw new Error(`${error.message}\n${await cluster!.run('squeue', []).catch(() => '')}\n${await cluster!.logs()}`);
      });
      const log = (name: string) => readFile(join(work, name), 'utf8').catch(() => '(no log)');
      const mergeLog = await log(`slurm-${mergeId}.out`);
      expect(merged.JobState, mergeLog).toBe('COMPLETED');
      const tasks = (await cluster.job(arrayId!)).filter((job) => job.ArrayJobId === arrayId);
      expect(tasks.map((job) => [Number(job.ArrayTaskId), job.JobState, job.ExitCode]).sort()).toEqual(Array.from({ length: SHARDS }, (_, i) => [i + 1, 'COMPLETED', '0:0']));

      // The requeued task's log kept both attempts; the second continued the shard.
      const logs = await Promise.all(Array.from({ length: SHARDS }, (_, i) => log(`slurm-${arrayId}_${i + 1}.out`)));
      const requeuedLog = logs[REQUEUED - 1]!;
      const left = shardPlans.length - atRequeue.done.length;
      const inShard = `sweep: ${shardPlans.length} run(s) in this shard of ${RUNS}`;
      expect(requeuedLog, requeuedLog).toContain(`${inShard}, 0 finished already, ${shardPlans.length} to run`);
      expect(requeuedLog, requeuedLog).toMatch(/DUE TO JOB REQUEUE/);
      // The first attempt stopped on Slurm's SIGTERM, not by the kill that follows its shell's exit.
      expect(requeuedLog, requeuedLog).toContain('interrupted: rerun the same command to continue');
      expect(requeuedLog, requeuedLog).not.toMatch(/stale lock/);
      expect(requeuedLog, `${JSON.stringify(atRequeue.done)}\n${requeuedLog}`).toContain(`${inShard}, ${atRequeue.done.length} finished already, ${left} to run`);
      expect(requeuedLog, requeuedLog).toMatch(new RegExp(`: ran ${left}, already finished ${atRequeue.done.length}, failed 0;`));
      // Every run finished once, over every task and attempt.
      const finishedLines = logs.flatMap((text) => [...text.matchAll(/^\[\d+\/\d+\] finished (\S+) \(/gm)].map((match) => match[1]!));
      expect(finishedLines.sort()).toEqual(plans.map((plan) => plan.id).sort());

      // Counted at the demo model: each run's calls through Slurm are the one-process sweep's, but
      // for the requeued shard's calls cut off in flight; its second attempt sent only the calls its
      // audit logs did not hold, so none to a run finished before the requeue.
      const throughSlurm = perRun(calls);
      const secondAttempt = perRun(calls.slice(callsAtRequeue));
      expect(calls.filter((id) => id.startsWith('unknown'))).toEqual([]);
      const all = await progressIn(join(work, 'results', 'all'), plans);
      let cutOff = 0;
      for (const plan of plans) {
        expect(all.calls.get(plan.id), plan.id).toBe(baseline[plan.id]);
        if (!shardPlans.includes(plan)) {
          expect(throughSlurm[plan.id], plan.id).toBe(baseline[plan.id]);
          continue;
        }
        expect(secondAttempt[plan.id], plan.id).toBe(all.calls.get(plan.id)! - atRequeue.calls.get(plan.id)!);
        if (atRequeue.done.includes(plan.id)) expect(secondAttempt[plan.id], plan.id).toBe(0);
        cutOff += throughSlurm[plan.id]! - baseline[plan.id]!;
      }
      // At most every agent of every run in flight.
      expect(cutOff).toBeGreaterThanOrEqual(0);
      expect(cutOff).toBeLessThanOrEqual(4 * 3);
      expect(atRequeue.partial.every((id) => secondAttempt[id]! > 0 && secondAttempt[id]! < baseline[id]!)).toBe(true);

      // The merge job's merge and summary equal the one-process sweep's.
      expect(mergeLog).toMatch(new RegExp(`merged ${SHARDS} folder\\(s\\) into \\S+: ${RUNS}/${RUNS} runs finished\\n`));
      const summary = await summarized;
      expect(summary.exitCode, summary.stderr).toBe(0);
      const json = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
      const manifest = await json(join(work, 'results', 'all', 'sweep.json'));
      const oneManifest = await json(join(one, 'results', 'sweep.json'));
      expect((manifest.runs as SweepRunPlan[]).map((plan) => plan.id)).toEqual((oneManifest.runs as SweepRunPlan[]).map((plan) => plan.id));
      for (const plan of plans) {
        const [fromSlurm, alone] = [await outputOf(join(work, 'results', 'all'), plan.id), await outputOf(join(one, 'results'), plan.id)];
        expect(fromSlurm.output, plan.id).toEqual(alone.output);
        // A run cut short took the calls its first attempt had finished from its audit log.
        expect([fromSlurm.replayed, alone.replayed], plan.id).toEqual([atRequeue.partial.includes(plan.id) ? atRequeue.calls.get(plan.id) : 0, 0]);
      }
      expect(await json(join(work, 'results', 'all', 'summary.json'))).toEqual(await json(join(one, 'results', 'summary.json')));
      expect(await json(join(work, 'results', 'all', 'totals.json'))).toEqual(await json(join(one, 'results', 'totals.json')));
    } finally {
      await cluster?.stop();
      await model.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
