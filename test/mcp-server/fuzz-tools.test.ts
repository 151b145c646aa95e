import { describe, expect, it } from 'vitest';
import { foreignFlags, formatFuzz, fuzzTools, type FuzzOptions } from '../../scripts/soak/fuzz-tools.js';

describe('the tool fuzz, short', () => {
  it('300 schema-driven calls against the built server: no exit, no hang, no result outside its output schema, no foreign flag in codex argv', async () => {
    const options: FuzzOptions = { calls: 300, seed: 13, concurrency: 4, timeoutMs: 30_000, hugeRate: 0.01 };
    const result = await fuzzTools(options);
    const summary = formatFuzz(result, options);
    expect(result.calls, summary).toBe(300);
    // The figures mean something only if calls got through and reached codex.
    expect(result.successes, summary).toBeGreaterThan(20);
    expect(result.codexRuns, summary).toBeGreaterThan(0);
    expect({ exits: result.exits, hangs: result.hangs, outputSchemaViolations: result.outputSchemaViolations, foreignFlags: result.foreignFlags }, summary).toEqual({
      exits: 0,
      hangs: 0,
      outputSchemaViolations: 0,
      foreignFlags: 0,
    });
  }, 120_000);

  it('the argv check sees a smuggled flag, and passes what parley builds', () => {
    const own = ['exec', '--color', 'never', '-s', 'read-only', '-C', '/tmp/x', 'resume', '--skip-git-repo-check', '--json', '-m', 'gpt-5', '-c', 'a="b"', '--output-schema', '/tmp/s.json'];
    expect(foreignFlags([...own, '--', '0f8fad5b-d9cb-469f-a165-70867728950e', '-'])).toEqual([]);
    expect(foreignFlags([...own, '--', '-'])).toEqual([]);
    expect(foreignFlags(['exec', '-s', 'read-only', 'resume', '--dangerously-bypass-approvals-and-sandbox', '-'])).toEqual(['--dangerously-bypass-approvals-and-sandbox', '-']);
    expect(foreignFlags(['exec', 'resume', '--', '--yolo', '-'])).toEqual(['--yolo']);
  });
});
