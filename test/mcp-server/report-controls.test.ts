import { afterEach, describe, expect, it } from 'vitest';
import { fakeCodex, startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('the report resource of a deliberation with a hostile reply', () => {
  it("writes the consultee's control characters as escapes, the text around them kept", async () => {
    const codex = fakeCodex(() => '1. INFERENCE: Pool the connections \x1bc SAFE\b\b\b\bEVIL \u009b2J \u202eevil\u202c done.');
    harness = await startHarness({ runCodex: codex.run });
    const { deliberationId } = await harness.ok('delib_start', { question: 'How big should the pool be?', consult: { waitSeconds: 5 } });
    await harness.ok('delib_judge', { deliberationId, points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a bounded pool protects the database' }] });
    const result = await harness.client.readResource({ uri: `parley://deliberations/${deliberationId}/report.md` });
    const text = (result.contents[0] as { text: string }).text;
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('Pool the connections \\u001bc SAFE\\u0008\\u0008\\u0008\\u0008EVIL \\u009b2J \\u202eevil\\u202c done');
  });
});
