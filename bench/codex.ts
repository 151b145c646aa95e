import { resolve } from 'node:path';
import { execa } from 'execa';
import { runCodex } from '../wrapper/codex/index.js';
import { makeCodexHome } from '../test/doubles/codex-home.js';
import { startScriptedResponses } from '../test/doubles/scripted-responses.js';

const N = 15;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * The cost of the wrapper over a hand-built `codex exec --json` on the same scripted server:
 * N new-session turns each, interleaved so drift hits both alike. Prints nothing.
 */
export async function benchCodex(): Promise<Record<string, number>> {
  const codexBin = resolve('node_modules/.bin/codex');
  const server = await startScriptedResponses(() => ({ text: 'benchmark answer', usage: { input: 100, output: 10 } }));
  const home = await makeCodexHome(server.baseUrl);
  const raw: number[] = [];
  const wrapped: number[] = [];
  try {
    for (let i = 0; i < N; i++) {
      const prompt = `benchmark prompt ${i}`;
      let started = performance.now();
      const direct = await execa(codexBin, ['exec', '--json', '--color', 'never', '--skip-git-repo-check', '-C', home.workDir, '-'], {
        input: prompt,
        env: home.env,
        reject: false,
      });
      raw.push(performance.now() - started);
      if (direct.exitCode !== 0) throw new Error(`raw codex exec failed (rc ${direct.exitCode}): ${direct.stderr.slice(-500)}`);

      started = performance.now();
      await runCodex({ prompt, codexPath: codexBin, env: home.env, cwd: home.workDir, timeoutMs: 60_000 });
      wrapped.push(performance.now() - started);
    }
  } finally {
    await server.close();
    await home.cleanup();
  }
  const rawMedianMs = median(raw);
  const wrapperMedianMs = median(wrapped);
  return {
    n: N,
    rawMedianMs,
    wrapperMedianMs,
    wrapperOverheadMs: wrapperMedianMs - rawMedianMs,
    wrapperOverRawRatio: wrapperMedianMs / rawMedianMs,
  };
}
