import { describe, expect, it } from 'vitest';
import { runOrchestration } from '../../../bench/orchestration.js';

// Issues 11 and 20's measures, pinned: the bench's own scenario and counting (bench/orchestration.ts: the built
// server over stdio, the real codex, the scripted Responses server), held to the issue's targets.
// Counts only: how many calls and how many bytes the orchestrator reads, never how long it took.
describe('what a deliberation costs the orchestrator (the orchestration bench, real codex)', () => {
  // Issue 26 made the closing result the brief for the answer (each claim with who checked it, every change),
  // bounded on its own; everything before it keeps issue 20's budget (then 8,768 bytes with a 2,924-byte summary).
  it('stays within the targets: standard <= 16 calls, results before the closing <= 1.15 x the consultee\'s + 3100, a closing result <= 5000 bytes, no stale report item; quick <= 4 calls and <= 2 Codex turns', { timeout: 240_000 }, async () => {
    const { standard, quick } = await runOrchestration();
    const bytes = standard.costs.filter((c) => !c.closing).reduce((sum, c) => sum + c.bytes, 0);
    const breakdown = `${standard.costs.map((c) => `${c.tool} ${c.bytes}`).join(', ')}; consultee ${standard.consulteeBytes}`;
    expect(standard.costs.length, breakdown).toBeLessThanOrEqual(16);
    expect(standard.consulteeBytes).toBeGreaterThan(1000);
    expect(bytes, breakdown).toBeLessThanOrEqual(1.15 * standard.consulteeBytes + 3100);
    expect(standard.costs.find((c) => c.closing)?.bytes, breakdown).toBeLessThanOrEqual(5000);
    expect(standard.staleReportItems).toBe(0);
    expect(quick.costs.length, quick.costs.map((c) => c.tool).join(', ')).toBeLessThanOrEqual(4);
    expect(quick.codexTurns).toBeLessThanOrEqual(2);
  });
});
