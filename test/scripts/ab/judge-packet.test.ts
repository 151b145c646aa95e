import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFor, packetText, swapped } from '../../../scripts/ab/packet.js';
import { HAND_MADE, runScript } from './ab-process.js';

const answers = { parley: 'The parley answer: keep strings.', plain: 'The other answer: use BigInt.' };
const QUESTION = 'Should we keep our ids as strings?';

/** Which arm's answer the packet shows under a label. */
const shownUnder = (packet: string, label: 'X' | 'Y') => new RegExp(`===== Answer ${label}: begin =====\\n\\n([\\s\\S]*?)\\n\\n===== Answer ${label}: end =====`).exec(packet)?.[1];

describe('the packet: shuffled by a seed, unshuffled by its key', () => {
  it('gives the same order for the same seed, and both orders over seeds', () => {
    expect(keyFor(42)).toEqual(keyFor(42));
    const orders = new Set(Array.from({ length: 20 }, (_, seed) => keyFor(seed).X));
    expect(orders).toEqual(new Set(['parley', 'plain']));
  });

  it.each([0, 1, 2, 3, 7, 42])('the key names the arm each label shows (seed %i)', (seed) => {
    const key = keyFor(seed);
    const { packet } = packetText(QUESTION, answers, key);
    for (const label of ['X', 'Y'] as const) expect(shownUnder(packet, label)).toContain(key[label] === 'parley' ? 'keep strings' : 'use BigInt');
    const second = swapped(key, 'key.json');
    expect([second.X, second.Y]).toEqual([key.Y, key.X]);
  });

  it('never names an arm: the tool\'s name in an answer becomes [tool], counted in the key', () => {
    const { packet, redactions } = packetText(QUESTION, { parley: 'Parley found, via parley://x, that PARLEY...', plain: 'Plain words.' }, keyFor(5));
    expect(packet).not.toMatch(/parley/i);
    expect(packet).toContain('[tool] found, via [tool]://x');
    expect(redactions).toEqual({ parley: 3, plain: 0 });
    expect(packet.startsWith(`# The question the user asked\n\n${QUESTION}\n`)).toBe(true);
  });
});

describe('judge-packet.ts', { timeout: 60_000 }, () => {
  const made: string[] = [];
  afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  /** A pair folder of its own, from the hand-made fixture, with no judge files. */
  function pair(): string {
    const dir = mkdtempSync(join(tmpdir(), 'ab-packet-'));
    made.push(dir);
    cpSync(join(HAND_MADE, 'a-parley-clearly'), dir, { recursive: true });
    rmSync(join(dir, 'judge'), { recursive: true });
    return dir;
  }
  const read = (dir: string, file: string) => readFileSync(join(dir, 'judge', file), 'utf8');

  it('writes the packet, the key and the schema; --swap writes the second judge\'s with the labels the other way', async () => {
    const dir = pair();
    const first = await runScript('ab/judge-packet.ts', ['--pair', dir, '--seed', '7']);
    expect(first.exitCode, first.stderr).toBe(0);
    const key = JSON.parse(read(dir, 'key.json'));
    expect(key).toMatchObject({ ...keyFor(7), redactions: { parley: 0, plain: 0 } });
    const packet = read(dir, 'packet.md');
    expect(packet).toBe(packetText(readFileSync(join(dir, 'question.md'), 'utf8'), { parley: readFileSync(join(dir, 'parley/answer.md'), 'utf8'), plain: readFileSync(join(dir, 'plain/answer.md'), 'utf8') }, keyFor(7)).packet);
    expect(packet).not.toMatch(/parley|plain|test\/ab|\/tmp\//i);
    expect(JSON.parse(read(dir, 'verdict.schema.json')).required).toEqual(expect.arrayContaining(['X', 'Y', 'preferred', 'notes']));

    const second = await runScript('ab/judge-packet.ts', ['--pair', dir, '--swap']);
    expect(second.exitCode, second.stderr).toBe(0);
    const key2 = JSON.parse(read(dir, 'key-2.json'));
    expect([key2.X, key2.Y]).toEqual([key.Y, key.X]);
    expect(shownUnder(read(dir, 'packet-2.md'), 'X')).toBe(shownUnder(packet, 'Y'));
  });

  it('refuses to redo a judge who has judged, and --swap before the first packet', async () => {
    const dir = pair();
    const early = await runScript('ab/judge-packet.ts', ['--pair', dir, '--swap']);
    expect(early.exitCode).toBe(2);
    expect(early.stderr).toContain('key.json is missing');
    expect(existsSync(join(dir, 'judge/packet-2.md'))).toBe(false);

    expect((await runScript('ab/judge-packet.ts', ['--pair', dir, '--seed', '1'])).exitCode).toBe(0);
    writeFileSync(join(dir, 'judge/verdict.json'), '{}');
    const key = read(dir, 'key.json');
    const again = await runScript('ab/judge-packet.ts', ['--pair', dir, '--seed', '2']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('verdict.json exists');
    expect(read(dir, 'key.json')).toBe(key);
  });

  it('names what is missing: an arm\'s answer', async () => {
    const dir = pair();
    rmSync(join(dir, 'plain/answer.md'));
    const result = await runScript('ab/judge-packet.ts', ['--pair', dir]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${join(dir, 'plain/answer.md')} is missing: the plain orchestrator's final answer`);
  });
});
