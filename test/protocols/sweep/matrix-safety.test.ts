import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { expandSweep, parseSweepMatrix } from '../../../protocols/sweep/index.js';
import { setPath } from '../../../protocols/sweep/matrix.js';

const tenValues = Array.from({ length: 10 }, (_, i) => i);

describe('sweep files that would harm the process', () => {
  it('refuses 10^7 combinations x 1,000 repetitions at once, before expanding anything', () => {
    const matrix = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`p${i}`, tenValues]));
    expect(() => expandSweep({ protocol: 'debate', base: { question: 'q' }, matrix, repetitions: 1000 })).toThrow(
      /10,000,000 combinations x 1000 repetitions = 10,000,000,000 runs; at most 100,000/,
    );
    expect(() => parseSweepMatrix({ protocol: 'debate', matrix, repetitions: 1000 })).toThrow(/at most 100,000/);
    // Expanding 10^10 runs would exhaust memory long before the test's timeout: no timing needed to see it did not.
    // A sweep within the bound still expands.
    expect(expandSweep({ protocol: 'debate', base: { question: 'q' }, matrix: { rounds: [1, 2] }, repetitions: 3 })).toHaveLength(6);
  });

  it('refuses parameter and set paths that reach a prototype, and the process stays clean', () => {
    const attempts: [string, Record<string, unknown[]>][] = [
      ['__proto__.x', { '__proto__.x': [1] }],
      ['constructor.prototype.x', { 'constructor.prototype.x': [1] }],
      ['prototype', { prototype: [1] }],
      ['set', { pid: [{ label: 'evil', set: { '__proto__.x': 1 } }] }],
    ];
    for (const [what, matrix] of attempts) {
      expect(() => expandSweep({ protocol: 'debate', base: { question: 'q' }, matrix }), what).toThrow(/invalid sweep file\b.*(__proto__|constructor|prototype)/);
    }
    const fromYaml = parseYaml('protocol: debate\nbase: {question: q}\nmatrix:\n  "__proto__.x": [1]\n  __proto__: [2]\n');
    expect(() => expandSweep(fromYaml)).toThrow(/__proto__/);
    expect(() => parseSweepMatrix(parseYaml('protocol: debate\nbase:\n  __proto__: {x: 1}\n'))).toThrow(/base\.__proto__: the key __proto__ is not allowed/);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('x');
  });

  it('setPath walks own keys only and never into a prototype', () => {
    const config: Record<string, unknown> = {};
    expect(() => setPath(config, '__proto__.x', 1)).toThrow(/prototypes/);
    expect(() => setPath(config, 'constructor.prototype.x', 1)).toThrow(/prototypes/);
    // An inherited member (toString) is not a place to write into: an own object replaces it.
    setPath(config, 'toString.x', 1);
    expect(Object.hasOwn(config, 'toString')).toBe(true);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(typeof ({}).toString).toBe('function');
  });
});
