import { describe, expect, it } from 'vitest';
import { finiteNumber, positiveInteger } from '../../cli/option-parsers.js';
import { registerDebateCommand } from '../../cli/debate.js';
import { runCli } from './cli-capture.js';

describe('number options, by their exact written form', () => {
  it('a whole number of at least 1', () => {
    expect(positiveInteger('3')).toBe(3);
    expect(positiveInteger('120')).toBe(120);
    for (const bad of ['', ' 3', '3 ', '0', '-2', '2.5', '0x10', '1e3', '03', '9007199254740993', 'three']) {
      expect(() => positiveInteger(bad), bad).toThrow(/expected a whole number of at least 1/);
    }
  });

  it('a number', () => {
    expect(finiteNumber('0.7')).toBe(0.7);
    expect(finiteNumber('-1')).toBe(-1);
    expect(finiteNumber('.5')).toBe(0.5);
    expect(finiteNumber('1e-3')).toBe(0.001);
    for (const bad of ['', ' ', '0x10', 'Infinity', 'NaN', '1,5', '1e999', 'abc']) expect(() => finiteNumber(bad), bad).toThrow(/expected a number/);
  });

  it('a bad value is a usage error naming the option, before anything runs', async () => {
    const args = ['debate', 'q?', '--agent', 'openai:a', '--agent', 'openai:b', '--rounds', '', '--out', '/nonexistent/x.json'];
    await expect(runCli(registerDebateCommand, args)).rejects.toThrow(/'--rounds <n>' argument '' is invalid\. expected a whole number of at least 1, got ''/);
  });
});
