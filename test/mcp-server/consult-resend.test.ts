import { afterEach, describe, expect, it } from 'vitest';
import { BackendError } from '../../wrapper/backend.js';
import { fakeCodex, startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('a prompt sent again after its consult failed (issue 21, item 14)', () => {
  it('says it is a resend when it goes to the same session, and only then', async () => {
    let calls = 0;
    const codex = fakeCodex((prompt) => (prompt.includes('Iteration 1/8') ? '1. INFERENCE: Redis keeps sessions across a restart.' : 'No further points.'));
    harness = await startHarness({
      runCodex: async (options) => {
        calls += 1;
        // The first sending fails (a fresh session: nothing to mark), then iteration 2's first sending.
        if (calls === 1 || calls === 3) throw new BackendError('timeout', 'codex did not answer within 600 s');
        return codex.run(options);
      },
    });
    const refusal = await harness.refused('delib_start', { question: 'Redis or Memcached?' });
    const id = /deliberation (d-[\w-]+) is kept/.exec(refusal)![1]!;
    await harness.ok('delib_consult', { deliberationId: id });
    expect(codex.calls[0]!.prompt).toMatch(/^You are the consultee/);

    const judgment = { deliberationId: id, points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a restart must not log every user out' }], phase: { advance: true } };
    await harness.refused('delib_judge', judgment);
    await harness.ok('delib_consult', { deliberationId: id });
    const resent = codex.calls[1]!;
    expect(resent.sessionId).toBe('fake-session-1');
    expect(resent.prompt).toMatch(/^\(RESENT\) This prompt was sent before, but no answer came back \(timeout\)\. If you see it twice, answer this copy only, in full: an earlier partial answer is not read\.\n\n=== USER QUESTION ===\n/);
    expect(resent.prompt).toContain('Iteration 2/8');
    expect(resent.prompt.match(/Iteration 2\/8/g)).toHaveLength(1);
  });
});
