import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDifferences, recordRunConfig, runConfigHash, RUN_CONFIG_FILE } from '../../protocols/run-config.js';
import { filesDigest } from './folder-digest.js';

const debate = (config: Record<string, unknown>) => ({ protocol: 'debate' as const, config });
const folder = async () => {
  const dir = join(await mkdtemp(join(tmpdir(), 'parley-run-config-')), 'x.run');
  await mkdir(dir);
  return dir;
};

describe('run configuration records', () => {
  it('names each differing leaf as path: before -> after, in key order, shortening long values', () => {
    const before = { question: 'A', agents: [{ model: 'openai:a' }, { model: 'openai:b' }], stop: { epsilon: 0.01 } };
    const after = { question: 'B', agents: [{ model: 'openai:a', role: 'skeptic' }, { model: 'openai:c' }, { model: 'openai:d' }], stop: { epsilon: 0.01 }, pid: { kp: 1 } };
    expect(configDifferences(before, after)).toEqual([
      'agents.0.role: (none) -> "skeptic"',
      'agents.1.model: "openai:b" -> "openai:c"',
      'agents.2: (none) -> {"model":"openai:d"}',
      'pid: (none) -> {"kp":1}',
      'question: "A" -> "B"',
    ]);
    expect(configDifferences({ q: 'x'.repeat(100) }, { q: 'y' })[0]).toBe(`q: "${'x'.repeat(58)}… -> "y"`);
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${String(i).padStart(2, '0')}`, i]));
    expect(configDifferences(many, {})).toHaveLength(9);
    expect(configDifferences(many, {}).at(-1)).toBe('and 4 more');
    expect(configDifferences({ a: [1, 2] }, { a: [1, 2] })).toEqual([]);
  });

  it('hashes the canonical configuration: key order and how long a run waits do not change it', () => {
    const hash = runConfigHash(debate({ question: 'q', rounds: 3, timeoutMs: 1000 }));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(runConfigHash(debate({ rounds: 3, question: 'q', timeoutMs: 5000, concurrencyPerBackend: 2 }))).toBe(hash);
    expect(runConfigHash(debate({ rounds: 4, question: 'q' }))).not.toBe(hash);
    expect(runConfigHash({ protocol: 'dialogic', config: { rounds: 3, question: 'q' } })).not.toBe(hash);
  });

  it('records a fresh folder, accepts the same run, and refuses another without touching the folder', async () => {
    const dir = await folder();
    await recordRunConfig(dir, debate({ question: 'A', rounds: 3, timeoutMs: 1 }));
    const file = JSON.parse(await readFile(join(dir, RUN_CONFIG_FILE), 'utf8'));
    expect(file).toEqual({ kind: 'parley.run-config', version: 1, protocol: 'debate', hash: runConfigHash(debate({ question: 'A', rounds: 3 })), config: { question: 'A', rounds: 3, timeoutMs: 1 } });
    const before = await filesDigest(dir);
    await recordRunConfig(dir, debate({ rounds: 3, question: 'A', timeoutMs: 99 }));
    await expect(recordRunConfig(dir, debate({ question: 'B', rounds: 3 }), 'do something else')).rejects.toMatchObject({
      code: 'run-config-changed',
      message: `${dir} holds a debate run started with another configuration (question: "A" -> "B"); nothing was called or changed. To start a fresh run, do something else`,
    });
    await expect(recordRunConfig(dir, { protocol: 'dialogic', config: { question: 'A', rounds: 3 } })).rejects.toThrow(/\(protocol: debate -> dialogic\)/);
    expect(await filesDigest(dir)).toEqual(before);
  });

  it('reads the configuration of a folder from before config.json from its audit log', async () => {
    const dir = await folder();
    const started = { type: 'debate.start', at: '2026-01-01T00:00:00.000Z', runId: 'debate', config: { question: 'A', rounds: 3 } };
    const restarted = { ...started, config: { question: 'B', rounds: 3 } };
    await writeFile(join(dir, 'audit.jsonl'), `${JSON.stringify(started)}\n${JSON.stringify(restarted)}\n`);
    const before = await filesDigest(dir);
    await expect(recordRunConfig(dir, debate({ question: 'B', rounds: 3 }))).rejects.toThrow(/question: "A" -> "B"/);
    expect(await filesDigest(dir)).toEqual(before);
    await recordRunConfig(dir, debate({ question: 'A', rounds: 3 }));
    expect(JSON.parse(await readFile(join(dir, RUN_CONFIG_FILE), 'utf8')).config).toEqual({ question: 'A', rounds: 3 });
  });

  it('refuses a config.json it did not write, naming the file', async () => {
    const dir = await folder();
    await writeFile(join(dir, RUN_CONFIG_FILE), '{"hello": 1}');
    await expect(recordRunConfig(dir, debate({ question: 'A' }))).rejects.toThrow(`${join(dir, RUN_CONFIG_FILE)} is not a run configuration parley wrote; restore it or remove the run folder ${dir}`);
  });
});
