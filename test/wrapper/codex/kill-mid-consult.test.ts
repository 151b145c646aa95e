import { describe, expect, it } from 'vitest';
import { formatKill, killMidConsult } from '../../../scripts/soak/kill-mid-consult.js';

describe('SIGKILL of the parley server mid-consult, short', () => {
  it('2 kills while codex runs its command: no codex process or command left', async () => {
    const result = await killMidConsult(2);
    const summary = formatKill(result);
    expect(result.consults, summary).toBe(2);
    expect(result.codexLeft, summary).toBe(0);
  }, 180_000);
});
