import { mkdir, rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('the deliberation report resource', () => {
  it('says so when the audit log cannot be read, with the reason, instead of dropping it silently', async () => {
    harness = await startHarness();
    const { deliberationId } = await harness.ok('delib_start', { question: 'Ship it?', consult: false });
    const auditPath = harness.deps.deliberations.store.auditLogPath(deliberationId);
    await rm(auditPath);
    await mkdir(auditPath);
    const { contents } = await harness.client.readResource({ uri: `parley://deliberations/${deliberationId}/report.md` });
    const text = (contents[0] as { text: string }).text;
    expect(text).toMatch(/^# Deliberation report\n/);
    expect(text).toContain(`> **The audit log could not be read** (EISDIR: illegal operation on a directory, read): the record below comes from the state alone`);
  });
});
