import { describe, expect, it } from 'vitest';
import { formatSoak, soakStoreKills, type SoakOptions } from '../../scripts/soak/store-kill.js';

describe('the store-kill soak, short', () => {
  it('kill -9 of 3 to 8 concurrent writers, with dead holders\' locks: no acknowledged write lost, no stale file left', async () => {
    const options: SoakOptions = { kills: 20, minWriters: 3, maxWriters: 8, staleEvery: 6 };
    const result = await soakStoreKills(options);
    const summary = formatSoak(result, options);
    expect(result.kills, summary).toBeGreaterThanOrEqual(20);
    expect(result.staleLockRounds, summary).toBeGreaterThan(0);
    expect(result.acknowledged, summary).toBeGreaterThan(0);
    expect(result.lost, summary).toEqual([]);
    expect(result.committedTwice, summary).toEqual([]);
    expect(result.staleFiles, summary).toEqual([]);
    expect(result.writerErrors, summary).toEqual([]);
  }, 120_000);
});
