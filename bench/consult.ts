import { realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { CODEX_BIN, lastUserText, startConsultRig } from '../test/mcp-server/consult/rig.js';
import type { ResponsesScriptStep } from '../test/doubles/scripted-responses.js';

const N = 11;
const ITERATIONS = 6;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * (a) One consult through parley's MCP tool (the built server over stdio) against a hand-built
 * `codex exec` with the same prompt, scripted server and CODEX_HOME, N each, interleaved with the
 * order alternating. (b) Prompt bytes per iteration over a 6-iteration deliberation whose ledger
 * grows every iteration: the "next" prompt should stay flat. Prints nothing.
 */
export async function benchConsult(): Promise<Record<string, number>> {
  return { ...(await consultVersusRaw()), ...(await promptGrowth()) };
}

async function consultVersusRaw(): Promise<Record<string, number>> {
  const rig = await startConsultRig(() => ({ text: '1. INFERENCE: benchmark answer.', usage: { input: 100, output: 10 } }));
  const emptyDir = await mkdtemp(join(tmpdir(), 'parley-bench-empty-'));
  const viaParley: number[] = [];
  const raw: number[] = [];
  // Spawned the way parley spawns it (this Node on the launcher script): the npm shim's
  // `#!/usr/bin/env node` would add an exec to the raw side only.
  const launcher = realpathSync(CODEX_BIN);
  try {
    const rawExec = async (prompt: string): Promise<number> => {
      const started = performance.now();
      const run = await execa(process.execPath, [launcher, 'exec', '--color', 'never', '-s', 'read-only', '-C', emptyDir, '--skip-git-repo-check', '--json', '-'], {
        input: prompt,
        env: rig.env,
        extendEnv: false,
        reject: false,
      });
      const elapsed = performance.now() - started;
      if (run.exitCode !== 0) throw new Error(`raw codex exec failed (rc ${run.exitCode}): ${run.stderr.slice(-500)}`);
      return elapsed;
    };
    const parleyConsult = async (): Promise<{ ms: number; prompt: string }> => {
      const id: string = (await rig.ok('delib_start', { question: 'Benchmark: should the cache be write-through?', consult: false })).deliberationId;
      const started = performance.now();
      const result = await rig.ok('delib_consult', { deliberationId: id, waitSeconds: 60 });
      const ms = performance.now() - started;
      if (result.consult.status !== 'done') throw new Error(`consult did not finish: ${JSON.stringify(result.consult)}`);
      const request = (await rig.audit(id)).find((a) => a.type === 'consult-request');
      return { ms, prompt: String(request?.prompt) };
    };
    const warm = await parleyConsult();
    await rawExec(warm.prompt);
    for (let i = 0; i < N; i++) {
      if (i % 2 === 0) {
        const consult = await parleyConsult();
        viaParley.push(consult.ms);
        raw.push(await rawExec(consult.prompt));
      } else {
        raw.push(await rawExec(warm.prompt));
        viaParley.push((await parleyConsult()).ms);
      }
    }
  } finally {
    await rig.close();
    await rm(emptyDir, { recursive: true, force: true });
  }
  const parleyMedianMs = median(viaParley);
  const rawMedianMs = median(raw);
  return {
    consultRuns: N,
    rawCodexExecMedianMs: rawMedianMs,
    parleyConsultMedianMs: parleyMedianMs,
    parleyOverheadMs: parleyMedianMs - rawMedianMs,
    'parleyOverRawRatio (target <= 1.02)': parleyMedianMs / rawMedianMs,
  };
}

/** Each reply adds one point the orchestrator agrees with, so the deliberation never converges early. */
function growingConsultee({ body }: { body: unknown }): ResponsesScriptStep {
  const n = /Iteration (\d+)\/8/.exec(lastUserText(body))?.[1] ?? '0';
  return { text: `1. EVIDENCE: extends P1.1 with measurement ${n} (bench.log:${n} "p99 ${40 + Number(n)} ms").` };
}

async function promptGrowth(): Promise<Record<string, number>> {
  const rig = await startConsultRig(growingConsultee);
  const promptBytes: number[] = [];
  const requestBytes: number[] = [];
  try {
    const id: string = (await rig.ok('delib_start', { question: 'Benchmark: which p99 budget should the API hold?', consult: false })).deliberationId;
    const fact = (n: number) => ({ action: 'add', tag: 'verified', text: `Load test ${n}: p99 stays under ${100 + n} ms at ${n}k req/s`, reference: `loadtest-${n}.log:1 "p99=${100 + n}ms"` });
    // Each judgment adds the iteration's fact, agrees with the last point, and its advance asks Codex for the next.
    await rig.ok('delib_judge', { deliberationId: id, ledger: [fact(1)], consult: false });
    let consulted = await rig.ok('delib_consult', { deliberationId: id, waitSeconds: 60 });
    for (let n = 1; n <= ITERATIONS; n++) {
      if (consulted.consult?.status !== 'done') throw new Error(`consult ${n} did not finish`);
      const request = (await rig.audit(id)).filter((a) => a.type === 'consult-request').at(-1);
      promptBytes.push(Buffer.byteLength(String(request?.prompt)));
      requestBytes.push(Buffer.byteLength(JSON.stringify(rig.server.requests.at(-1)?.body.input ?? [])));
      const point = { id: `P${n}.1`, decisive: true, verdict: 'AGREE', claimType: 'value', reason: 'the measurement supports the proposed budget' };
      if (n < ITERATIONS) consulted = await rig.ok('delib_judge', { deliberationId: id, ledger: [fact(n + 1)], points: [point], phase: { advance: true }, consult: { waitSeconds: 60 } });
    }
  } finally {
    await rig.close();
  }
  const figures: Record<string, number> = {};
  promptBytes.forEach((bytes, i) => (figures[`promptBytesIteration${i + 1}`] = bytes));
  figures['promptBytes iteration6/iteration2 (flat: ~1)'] = promptBytes[5]! / promptBytes[1]!;
  // Codex itself resends the whole thread on every resume: that is its cost, not the prompt's.
  figures['codexRequestInputBytes iteration6/iteration2'] = requestBytes[5]! / requestBytes[1]!;
  return figures;
}
