/** Issue 23: who sees the agents' roles is a condition a sweep varies, and its runs record it. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSweepMatrix, runFiles, runSweep, summarizeSweep } from '../../../protocols/sweep/index.js';
import { runOfRequest, startDebateWorld } from './worlds.js';

const work = await mkdtemp(join(tmpdir(), 'parley-sweep-roles-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

const ROLE = 'security lead (SOC 2 audit in 6 months)';

describe('roleVisibility in a debate sweep', () => {
  it('is a parameter: each run shows the roles to whom its level says, records it, and the summary groups by it', async () => {
    const chat = await startDebateWorld();
    try {
      const spec = (model: string) => `openai-compatible:${chat.baseUrl}#${model}`;
      const matrix = parseSweepMatrix({
        protocol: 'debate',
        base: {
          question: 'Ship today?',
          options: ['yes', 'no'],
          rounds: 2,
          agents: [{ model: spec('d1'), role: 'release manager' }, { model: spec('d2'), role: ROLE }],
          crit: { judge: spec('crit'), variant: 'pillars' },
          stop: { onConvergence: false, onUnanimity: false },
        },
        matrix: { roleVisibility: ['all', 'judges'] },
      });
      const dir = join(work, 'roles');
      const report = await runSweep(matrix, { outDir: dir, concurrency: 2 });
      expect(report.failed).toEqual([]);
      const runOf = runOfRequest(report.manifest.runs);
      for (const plan of report.manifest.runs) {
        const level = plan.params.roleVisibility;
        expect(plan.id).toContain(`-${level}-`);
        const transcript = JSON.parse(await readFile(runFiles(dir, plan.id).output, 'utf8'));
        expect(transcript.roleVisibility).toBe(level);
        const requests = chat.requests.filter((req) => runOf(req) === plan.id);
        const d1System = requests.find((req) => req.model === 'd1')!.messages[0]!.content;
        const crit = requests.filter((req) => req.model === 'crit').map((req) => req.messages.at(-1)!.content);
        expect(d1System.includes(ROLE)).toBe(level === 'all');
        expect(crit).toHaveLength(2);
        expect(crit.every((prompt) => prompt.includes(`- Agent 2: role ${JSON.stringify(ROLE)}`))).toBe(true);
      }
      const summary = await summarizeSweep(dir);
      expect(summary.by).toEqual(['roleVisibility']);
      expect(summary.rows.map((row) => row.group.roleVisibility).sort()).toEqual(['all', 'judges']);
    } finally {
      await chat.close();
    }
  });
});
