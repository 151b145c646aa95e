// Sweep throughput (runs/s) against the number of runs in flight, with a scripted per-call latency.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSweep } from '../protocols/sweep/index.js';
import { parseSweepMatrix } from '../protocols/sweep/matrix.js';
import { startScriptedChat } from '../test/doubles/scripted-chat.js';

const LATENCY_MS = 40;
const RUNS = 32;

/** Small debates: two agents, two rounds, so a run is two rounds of one call per agent. */
export async function benchSweep(): Promise<Record<string, number>> {
  const reply = (answer: string) => JSON.stringify({ answer, claims: [{ id: 'c1', text: `I hold ${answer}.` }] });
  const chat = await startScriptedChat((req) => ({ content: reply(req.model === 'd1' ? 'yes' : 'no'), delayMs: LATENCY_MS }));
  const work = await mkdtemp(join(tmpdir(), 'parley-bench-sweep-'));
  const spec = (model: string) => `openai-compatible:${chat.baseUrl}#${model}`;
  const matrix = (perBackend: number) =>
    parseSweepMatrix({
      protocol: 'debate',
      base: { question: 'Ship today?', options: ['yes', 'no'], rounds: 2, agents: [{ model: spec('d1') }, { model: spec('d2') }], stop: { onConvergence: false, onUnanimity: false } },
      matrix: { temperature: [0.2, 0.8] },
      repetitions: RUNS / 2,
      perBackend: { default: perBackend },
    });
  const figures: Record<string, number> = {};
  let sweeps = 0;
  try {
    const throughput = async (concurrency: number, perBackend: number): Promise<number> => {
      const started = performance.now();
      const report = await runSweep(matrix(perBackend), { outDir: join(work, `sweep-${(sweeps += 1)}`), concurrency });
      if (report.failed.length || report.ran.length !== RUNS) throw new Error(`bench sweep: ${report.failed.length} failed, ${report.ran.length}/${RUNS} ran`);
      return RUNS / ((performance.now() - started) / 1000);
    };
    await throughput(4, 16); // warm-up: module loading, first connections
    const base = await throughput(1, 16);
    figures[`runs/s, concurrency 1 (${LATENCY_MS} ms per call, ${RUNS} runs)`] = base;
    for (const concurrency of [4, 16]) {
      const rate = await throughput(concurrency, 16);
      figures[`runs/s, concurrency ${concurrency}`] = rate;
      figures[`speed-up, concurrency ${concurrency} vs 1 (ideal ${concurrency})`] = rate / base;
    }
    const limited = await throughput(16, 4);
    figures['runs/s, concurrency 16, 4 calls per backend'] = limited;
    figures['speed-up, concurrency 16, 4 calls per backend (ideal 4)'] = limited / base;
  } finally {
    await chat.close();
    await rm(work, { recursive: true, force: true });
  }
  return figures;
}
