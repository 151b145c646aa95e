import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLiveLine, oneLine } from '../../cli/live-line.js';
import { runInterruptible } from '../../cli/shared.js';

/** A fake stderr and a clock the test moves by hand (fake timers drive the once-a-second tick). */
function sink(isTTY: boolean, columns = 200) {
  const written: string[] = [];
  return { written, isTTY, columns, write: (text: string) => written.push(text) };
}

describe('the live line', () => {
  let clock = 0;
  const now = () => clock;
  const advance = (ms: number) => {
    for (let step = 0; step < ms; step += 100) {
      clock += 100;
      vi.advanceTimersByTime(100);
    }
  };
  beforeEach(() => {
    clock = 0;
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it('on a terminal names the pending call from its start and redraws it every second with its elapsed time', () => {
    const out = sink(true);
    const live = createLiveLine(out, { now });
    live.update({ done: 1, total: 4, message: 'round 1/2: Agent 1 ok' });
    const done = live.callStarted('agent 2 (codex:gpt-5)');
    expect(out.written.at(-1)).toBe('\r\x1b[2K[1/4] waiting on agent 2 (codex:gpt-5) 0 s · round 1/2: Agent 1 ok');
    advance(1000);
    expect(out.written.at(-1)).toContain('waiting on agent 2 (codex:gpt-5) 1 s');
    advance(2000);
    expect(out.written.at(-1)).toContain('waiting on agent 2 (codex:gpt-5) 3 s');
    expect(out.written.every((text) => !text.includes('\n'))).toBe(true);
    done();
    expect(out.written.at(-1)).toBe('\r\x1b[2K[1/4] round 1/2: Agent 1 ok');
    const count = out.written.length;
    advance(5000);
    expect(out.written.length).toBe(count);
    live.end();
    expect(out.written.at(-1)).toBe('\n');
  });

  it('on a terminal keeps the seconds in view when the spec is a long URL', () => {
    const out = sink(true, 80);
    const live = createLiveLine(out, { now });
    live.callStarted(`agent 3 (openai-compatible:http://127.0.0.1:41234/v1/some/long/path#a-model-name)`);
    advance(2000);
    const line = out.written.at(-1)!;
    expect(line.length).toBeLessThanOrEqual('\r\x1b[2K'.length + 79);
    expect(line).toMatch(/waiting on agent 3 \(.*….*a-model-name\) 2 s$/);
  });

  it('in a pipe prints a plain "waiting on" line after 2 s, then every 10 s, and nothing for a quick call', () => {
    const out = sink(false);
    const live = createLiveLine(out, { now });
    const quick = live.callStarted('agent 1 (openai:gpt-4.1)');
    advance(1000);
    quick();
    const slow = live.callStarted('agent 2 (codex:gpt-5)');
    advance(25_000);
    slow();
    live.update({ done: 2, total: 2, message: 'round 1/1: Agent 2 ok' });
    expect(out.written).toEqual([
      'waiting on agent 2 (codex:gpt-5) 2 s\n',
      'waiting on agent 2 (codex:gpt-5) 10 s\n',
      'waiting on agent 2 (codex:gpt-5) 20 s\n',
      '[2/2] round 1/1: Agent 2 ok\n',
    ]);
  });

  it('puts calls due at the same second on one line', () => {
    const out = sink(false);
    const live = createLiveLine(out, { now });
    live.callStarted('agent 1 (a)');
    live.callStarted('agent 2 (b)');
    advance(2000);
    expect(out.written).toEqual(['waiting on agent 1 (a) 2 s, agent 2 (b) 2 s\n']);
  });

  it('shows why a call failed: one line, secrets redacted, bounded length', () => {
    vi.stubEnv('SOME_PROVIDER_API_KEY', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789');
    const out = sink(false);
    const live = createLiveLine(out, { now });
    live.callStarted('agent 2 (claude:sonnet)')('claude binary not found\n  at /usr/bin: key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 was refused');
    expect(out.written).toHaveLength(1);
    expect(out.written[0]).toMatch(/^agent 2 \(claude:sonnet\) failed: claude binary not found at \/usr\/bin: key \[redacted\] was refused\n$/);
    expect(out.written[0]).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
    expect(oneLine('x'.repeat(1000))).toHaveLength(240);
  });

  it('on a terminal writes a failure above the live line and draws the line again under it', () => {
    const out = sink(true);
    const live = createLiveLine(out, { now });
    live.callStarted('agent 1 (a)');
    live.callStarted('agent 2 (b)')('HTTP 500');
    expect(out.written.slice(-2)).toEqual(['\r\x1b[2Kagent 2 (b) failed: HTTP 500\n', '\r\x1b[2Kwaiting on agent 1 (a) 0 s']);
  });

  it("writes a model's control characters in progress and failures as escapes: only its own cursor controls reach the terminal", () => {
    const out = sink(true);
    const live = createLiveLine(out, { now });
    live.update({ done: 1, message: 'agent 1 said \x1b]0;owned\x07 and \u009b2J' });
    live.callStarted('agent 2 (b)')('provider said \x1bc SAFE\b\b\b\bEVIL');
    expect(out.written.slice(-2)).toEqual([
      '\r\x1b[2Kagent 2 (b) failed: provider said \\u001bc SAFE\\u0008\\u0008\\u0008\\u0008EVIL\n',
      '\r\x1b[2K[1] agent 1 said \\u001b]0;owned\\u0007 and \\u009b2J',
    ]);
    const pipe = sink(false);
    createLiveLine(pipe, { now }).update({ done: 2, message: 'a \x00 b' });
    expect(pipe.written).toEqual(['[2] a \\u0000 b\n']);
  });
});

describe('runInterruptible', () => {
  it('cancels what the command left in flight when it fails, so the process can exit', async () => {
    let seen: AbortSignal | undefined;
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await runInterruptible('debate', async (signal) => {
        seen = signal;
        throw new Error('Model spec "openai:gpt-4.1" needs an API key');
      });
    } finally {
      error.mockRestore();
    }
    expect(process.exitCode).toBe(1);
    process.exitCode = 0;
    expect(seen?.aborted).toBe(true);
  });
});
