import { describe, expect, it } from 'vitest';
import { runOrchestration } from '../../../bench/orchestration.js';

// Issue 11's measure, pinned: the bench's own scenario and counting (bench/orchestration.ts: the built
// server over stdio, the real codex, the scripted Responses server), held to the targets.
// Counts only: how many calls and how many bytes the orchestrator reads, never how long it took.
describe('what a deliberation costs the orchestrator (the orchestration bench, real codex)', () => {
  it('stays within the targets: standard <= 16 calls and <= 15000 result bytes; quick <= 4 calls and <= 2 Codex turns', { timeout: 180_000 }, async () => {
    const { standard, quick } = await runOrchestration();
    const bytes = standard.costs.reduce((sum, c) => sum + c.bytes, 0);
    const breakdown = standard.costs.map((c) => `${c.tool} ${c.bytes}`).join(', ');
    expect(standard.costs.length, breakdown).toBeLessThanOrEqual(16);
    expect(bytes, breakdown).toBeLessThanOrEqual(15_000);
    expect(quick.costs.length, quick.costs.map((c) => c.tool).join(', ')).toBeLessThanOrEqual(4);
    expect(quick.codexTurns).toBeLessThanOrEqual(2);
  });
});
