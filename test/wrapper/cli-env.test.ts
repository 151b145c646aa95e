import { describe, expect, it } from 'vitest';
import { passthroughEnv, scrub, secretValues, tail } from '../../wrapper/cli-env.js';

describe('CLI env passthrough', () => {
  const parent = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    ANTHROPIC_API_KEY: 'ant-key-123456',
    CLAUDE_CONFIG_DIR: '/cfg',
    OPENAI_API_KEY: 'sk-not-for-claude',
    GITHUB_TOKEN: 'ghp-not-for-claude',
    DATABASE_URL: 'postgres://secret',
  };

  it('keeps the allow-listed names and prefixes only', () => {
    expect(passthroughEnv(parent, ['ANTHROPIC_', 'CLAUDE_'])).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      ANTHROPIC_API_KEY: 'ant-key-123456',
      CLAUDE_CONFIG_DIR: '/cfg',
    });
  });

  it('finds secret values and scrubs them from text', () => {
    const secrets = secretValues(parent);
    expect(secrets).toContain('ant-key-123456');
    expect(secrets).toContain('ghp-not-for-claude');
    expect(secrets).not.toContain('/usr/bin');
    expect(scrub('auth failed for ant-key-123456 twice: ant-key-123456', secrets)).toBe('auth failed for [redacted] twice: [redacted]');
  });

  it('bounds a stderr tail to its last characters', () => {
    expect(tail('x'.repeat(10) + 'END', 5)).toBe('…xxEND');
    expect(tail('  short \n')).toBe('short');
  });
});
