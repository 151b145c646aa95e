import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCodexArgs, parseJsonEvents, parsePlainOutput } from '../../../wrapper/codex/index.js';
import { classifyFailure, resendable } from '../../../wrapper/codex/failures.js';
import { CODEX_CAPTURES } from '../../doubles/interop.js';

// Real captures of codex 0.169 (test/doubles/interop/codex-0.169/README.md says how they were made).
const CAPTURES = CODEX_CAPTURES;
if (!existsSync(CAPTURES)) throw new Error(`codex interop captures are missing: expected them at ${CAPTURES}`);

interface Capture { name: string; cmd: string; stdout: string; stderr: string; rc: number; lastmsg?: string }

function load(name: string): Capture {
  const read = (ext: string): string => readFileSync(join(CAPTURES, `${name}.${ext}`), 'utf8');
  const lastmsgPath = join(CAPTURES, `${name}.lastmsg`);
  return {
    name,
    cmd: read('cmd'),
    stdout: read('stdout'),
    stderr: read('stderr'),
    rc: Number(read('rc').trim()),
    ...(existsSync(lastmsgPath) ? { lastmsg: readFileSync(lastmsgPath, 'utf8') } : {}),
  };
}

const captures = readdirSync(CAPTURES).filter((f) => f.endsWith('.cmd')).map((f) => load(f.slice(0, -'.cmd'.length)));
const isJson = (c: Capture): boolean => / --json /.test(c.cmd);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const byName = (name: string): Capture => {
  const found = captures.find((c) => c.name === name);
  if (!found) throw new Error(`capture ${name} missing from ${CAPTURES}`);
  return found;
};

describe('codex captures: every one parses', () => {
  it('has the expected set of captures', () => {
    expect(captures.length).toBeGreaterThanOrEqual(26);
  });

  for (const capture of captures.filter(isJson)) {
    it(`${capture.name}: --json events all validate, thread id found`, () => {
      const run = parseJsonEvents(capture.stdout);
      expect(run.events.filter((e) => e.type === 'unparsed')).toEqual([]);
      expect(run.events.length).toBe(capture.stdout.split('\n').filter((l) => l.trim()).length);
      expect(run.threadId).toMatch(UUID);
      if (capture.rc === 0) {
        expect(run.answer.length).toBeGreaterThan(0);
        expect(run.usage?.input_tokens).toBeGreaterThan(0);
        expect(run.turnFailed).toBeUndefined();
      } else if (capture.rc === 1) {
        expect(run.turnFailed).toBeTruthy();
        expect(classifyFailure({ stderr: capture.stderr, exitCode: 1, timeoutMs: 1, streamErrors: run.streamErrors, turnFailed: run.turnFailed })?.kind).toBe('turn-failed');
      }
      expect(run.warnings.some((w) => w.includes('Model metadata for `fake-model` not found'))).toBe(true);
    });
  }

  for (const capture of captures.filter((c) => !isJson(c) && c.rc === 0)) {
    it(`${capture.name}: plain answer is stdout without its final newline, session id and tokens from stderr`, () => {
      const run = parsePlainOutput(capture.stdout, capture.stderr);
      expect(run.answer).toBe(capture.stdout.slice(0, -1));
      expect(run.sessionId).toMatch(UUID);
      expect(run.model).toBe('fake-model');
      expect(run.totalTokens).toBeGreaterThan(0);
      if (capture.lastmsg !== undefined) expect(run.answer).toBe(capture.lastmsg);
    });
  }
});

describe('codex captures: exact values', () => {
  it('01/02 plain new session and resume: same session, cumulative tokens', () => {
    const first = parsePlainOutput(byName('01_exec').stdout, byName('01_exec').stderr);
    const resumed = parsePlainOutput(byName('02_resume').stdout, byName('02_resume').stderr);
    expect(first).toMatchObject({ sessionId: '01a1fcbb-63f0-7f50-bde3-3edc7c9f227a', totalTokens: 290 });
    expect(first.answer).toBe('FAKE REPLY #9: you said "hello" (input items: 4)\nSecond line of reply.');
    expect(resumed).toMatchObject({ sessionId: first.sessionId, totalTokens: 580 });
    expect(first.warnings.some((w) => w.includes('bubblewrap'))).toBe(true);
  });

  it('03/04 --json usage, cumulative on resume', () => {
    const first = parseJsonEvents(byName('03_json').stdout);
    const resumed = parseJsonEvents(byName('04_json_resume').stdout);
    expect(first.usage).toMatchObject({ input_tokens: 1234, cached_input_tokens: 1000, output_tokens: 56, reasoning_output_tokens: 7 });
    expect(resumed.usage).toMatchObject({ input_tokens: 2468, cached_input_tokens: 2000, output_tokens: 112, reasoning_output_tokens: 14 });
    expect(resumed.threadId).toBe(first.threadId);
    expect(first.answer).toBe('FAKE REPLY #11: you said "hello json" (input items: 4)\nSecond line of reply.');
  });

  it('09 large token counts: commas stripped', () => {
    expect(parsePlainOutput(byName('09_big_tokens').stdout, byName('09_big_tokens').stderr).totalTokens).toBe(1_233_623);
    expect(parseJsonEvents(byName('09_big_tokens_json').stdout).usage?.input_tokens).toBe(1_234_567);
  });

  it('10 adversarial answer with `codex` and `tokens used` lines: answer intact, real total taken', () => {
    for (const name of ['10_adversarial_text', '10_adversarial_o']) {
      const run = parsePlainOutput(byName(name).stdout, byName(name).stderr);
      expect(run.answer).toBe('Answer line 1\ncodex\ntokens used\n999\n\nlast line after blank\n');
      expect(run.totalTokens).toBe(290);
    }
    expect(parsePlainOutput(byName('10_adversarial_o').stdout, '').answer).toBe(byName('10_adversarial_o').lastmsg);
  });

  it('07 tool call: command, exit code and output; answer is the last agent message', () => {
    const run = parseJsonEvents(byName('07_toolcall_json').stdout);
    expect(run.commands).toEqual([
      { command: "/bin/bash -lc 'echo tool-output-here; pwd'", exitCode: 0, output: expect.stringContaining('tool-output-here\n/tmp\n') },
    ]);
    expect(run.answer.startsWith('Final answer after tool.')).toBe(true);
    const plain = parsePlainOutput(byName('07_toolcall').stdout, byName('07_toolcall').stderr);
    expect(plain.answer.startsWith('Final answer after tool.')).toBe(true);
    expect(plain.totalTokens).toBe(330);
  });

  it('1x plain failures map to exit errors with the codex message and HTTP status', () => {
    const cases: [string, string, number | undefined][] = [
      ['1x_fail_401', 'unexpected status 401 Unauthorized', 401],
      ['1x_fail_400model', 'does not exist or you do not have access', undefined],
      ['1x_fail_500', 'high demand', undefined],
      ['1x_fail_nocomplete', 'stream disconnected before completion', undefined],
    ];
    for (const [name, text, status] of cases) {
      const capture = byName(name);
      const parsed = parsePlainOutput(capture.stdout, capture.stderr);
      expect(parsed.answer).toBe('');
      const error = classifyFailure({ stderr: capture.stderr, exitCode: capture.rc, timeoutMs: 1, streamErrors: parsed.errors });
      expect(error?.kind).toBe('exit');
      expect(error?.message).toContain(text);
      expect(error?.detail.status).toBe(status);
      expect(error?.detail.exitCode).toBe(1);
    }
  });

  it('1x --json failures carry the turn.failed message', () => {
    const run = parseJsonEvents(byName('1x_fail_nocomplete_json').stdout);
    expect(run.answer).toContain('FAKE REPLY #26');
    expect(run.turnFailed).toBe('stream disconnected before completion: stream closed before response.completed');
    const error = classifyFailure({ stderr: '', exitCode: 1, timeoutMs: 1, streamErrors: [], turnFailed: parseJsonEvents(byName('1x_fail_401_json').stdout).turnFailed });
    expect(error).toMatchObject({ kind: 'turn-failed', detail: { status: 401 } });
  });

  it('transient failures (a cut stream, 500 "high demand", 502-504) are marked so, with whether Codex had answered; a cut after the answer is not resendable', () => {
    const json = parseJsonEvents(byName('1x_fail_nocomplete_json').stdout);
    const cutAfterAnswer = classifyFailure({ stderr: '', exitCode: 1, timeoutMs: 1, streamErrors: [], turnFailed: json.turnFailed, answered: json.answer !== '' });
    expect(cutAfterAnswer).toMatchObject({ kind: 'turn-failed', detail: { transient: true, answered: true } });
    expect(resendable(cutAfterAnswer)).toBe(false);
    const plain = byName('1x_fail_nocomplete');
    const plainCut = classifyFailure({ stderr: plain.stderr, exitCode: 1, timeoutMs: 1, streamErrors: [], answered: /^codex$/m.test(plain.stderr) });
    expect(plainCut).toMatchObject({ kind: 'exit', detail: { transient: true, answered: true } });
    const failed = (turnFailed: string) => classifyFailure({ stderr: '', exitCode: 1, timeoutMs: 1, streamErrors: [], turnFailed, answered: false });
    for (const message of ['stream disconnected before completion: stream closed before response.completed', 'We’re currently experiencing high demand, which may cause temporary errors.', 'unexpected status 503 Service Unavailable: overloaded, url: http://127.0.0.1:1/v1/responses']) {
      expect(failed(message)?.message).toContain('(a transient failure between Codex and the model provider)');
      expect(resendable(failed(message))).toBe(true);
    }
    for (const message of ['exceeded retry limit, last status: 429 Too Many Requests', 'unexpected status 401 Unauthorized: Incorrect API key provided', 'unexpected status 400 Bad Request: no such model']) {
      expect(failed(message)?.detail.transient).toBeUndefined();
      expect(resendable(failed(message))).toBe(false);
    }
  });

  it('20 unknown uuid -> unknown-session; 21 unknown name -> a different (new) session id', () => {
    const bogus = byName('20_resume_bogus_uuid');
    expect(classifyFailure({ stderr: bogus.stderr, exitCode: bogus.rc, timeoutMs: 1, streamErrors: [], requestedSessionId: '00000000-0000-0000-0000-000000000000' })?.kind).toBe('unknown-session');
    const renamed = parsePlainOutput(byName('21_resume_name_nomatch').stdout, byName('21_resume_name_nomatch').stderr);
    expect(renamed.sessionId).toMatch(UUID);
    expect(renamed.sessionId).not.toBe('no-such-name');
  });

  it('22 unreachable: our timeout names the reconnect loop; 23 and 24 are exits with their reason', () => {
    const unreachable = byName('22_unreachable_json');
    const events = parseJsonEvents(unreachable.stdout);
    expect(events.turnFailed).toBeUndefined();
    const timeout = classifyFailure({ stderr: unreachable.stderr, timeoutMs: 5000, stoppedBy: 'timeout', streamErrors: events.streamErrors, signal: 'SIGTERM' });
    expect(timeout?.kind).toBe('timeout');
    expect(timeout?.message).toContain('Reconnecting... waiting for network');
    const noGit = byName('23_no_skip_git');
    expect(classifyFailure({ stderr: noGit.stderr, exitCode: 1, timeoutMs: 1, streamErrors: [] })?.message).toContain('Not inside a trusted directory');
    const badFlag = byName('24_bad_flag');
    expect(classifyFailure({ stderr: badFlag.stderr, exitCode: 2, timeoutMs: 1, streamErrors: [] })).toMatchObject({ kind: 'exit', detail: { exitCode: 2 } });
  });
});

/**
 * Every event and item shape @openai/codex-sdk 0.163 declares (its dist/index.d.ts: ThreadEvent,
 * ThreadItem), one line each, written from those types. parley does not import the SDK (see
 * CONTRIBUTING.md); this table is how its declared format reaches parley's parser.
 */
describe('codex --json: the shapes the official SDK declares', () => {
  const thread = '019a2b3c-4d5e-6f70-8192-a3b4c5d6e7f8';
  const lines = [
    { type: 'thread.started', thread_id: thread },
    { type: 'turn.started' },
    { type: 'item.started', item: { id: 'i1', type: 'command_execution', command: 'ls', aggregated_output: '', status: 'in_progress' } },
    { type: 'item.updated', item: { id: 'i2', type: 'todo_list', items: [{ text: 'read', completed: false }] } },
    { type: 'item.completed', item: { id: 'i1', type: 'command_execution', command: 'ls', aggregated_output: 'a\n', exit_code: 2, status: 'failed' } },
    { type: 'item.completed', item: { id: 'i3', type: 'command_execution', command: 'pwd', aggregated_output: '', status: 'completed' } },
    { type: 'item.completed', item: { id: 'i4', type: 'file_change', changes: [{ path: 'a.ts', kind: 'update' }], status: 'completed' } },
    { type: 'item.completed', item: { id: 'i5', type: 'mcp_tool_call', server: 's', tool: 't', arguments: {}, result: { content: [], structured_content: null }, status: 'completed' } },
    { type: 'item.completed', item: { id: 'i6', type: 'web_search', query: 'q' } },
    { type: 'item.completed', item: { id: 'i7', type: 'reasoning', text: 'thinking' } },
    { type: 'item.completed', item: { id: 'i8', type: 'error', message: 'a non-fatal warning' } },
    { type: 'item.completed', item: { id: 'i9', type: 'agent_message', text: 'the answer' } },
    { type: 'error', message: 'Reconnecting... 1/5' },
    // The SDK fills cache_write_input_tokens ??= 0: CLIs before 0.169 leave it out.
    { type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 4, output_tokens: 3, reasoning_output_tokens: 1 } },
  ];
  const stdout = lines.map((line) => JSON.stringify(line)).join('\n');

  it('every line validates (none kept as unparsed)', () => {
    const run = parseJsonEvents(stdout);
    expect(run.events.map((event) => event.type)).toEqual(lines.map((line) => line.type));
    expect(run.warnings).toEqual(['a non-fatal warning']);
  });

  it('the parts parley reads: thread, answer, commands (exit code omitted -> null), reasoning, usage, stream errors', () => {
    const run = parseJsonEvents(stdout);
    expect(run).toMatchObject({ threadId: thread, answer: 'the answer', reasoning: ['thinking'], streamErrors: ['Reconnecting... 1/5'] });
    expect(run.commands).toEqual([
      { command: 'ls', exitCode: 2, output: 'a\n' },
      { command: 'pwd', exitCode: null, output: '' },
    ]);
    expect(run.usage).toEqual({ input_tokens: 10, cached_input_tokens: 4, output_tokens: 3, reasoning_output_tokens: 1 });
    expect(run.turnFailed).toBeUndefined();
  });

  it('turn.failed carries its message', () => {
    const failed = [{ type: 'thread.started', thread_id: thread }, { type: 'turn.failed', error: { message: 'unexpected status 401' } }];
    expect(parseJsonEvents(failed.map((line) => JSON.stringify(line)).join('\n')).turnFailed).toBe('unexpected status 401');
  });
});

describe('codex argv', () => {
  it('new session: exec-level flags, --json, prompt from stdin', () => {
    expect(buildCodexArgs({ cwd: '/proj', model: 'm', reasoningEffort: 'high', config: { 'a.b': '1' } })).toEqual([
      'exec', '--color', 'never', '-s', 'read-only', '-C', '/proj',
      '--skip-git-repo-check', '--json', '-m', 'm', '-c', 'model_reasoning_effort="high"', '-c', 'a.b=1', '--', '-',
    ]);
  });

  it('resume: -C, -s and --color before `resume` (refused after it), the rest after', () => {
    const id = '019a2b3c-4d5e-6f70-8192-a3b4c5d6e7f8';
    const args = buildCodexArgs({ sessionId: id, cwd: '/d', sandbox: 'workspace-write', mode: 'plain', outputSchemaFile: '/s.json' });
    const resumeAt = args.indexOf('resume');
    for (const flag of ['-C', '-s', '--color']) expect(args.indexOf(flag)).toBeLessThan(resumeAt);
    expect(args.slice(resumeAt)).toEqual(['resume', '--skip-git-repo-check', '--output-schema', '/s.json', '--', id, '-']);
    expect(args).not.toContain('--json');
  });

  it('refuses any value not of its exact form before it reaches the command line (a session id cannot be a flag)', () => {
    expect(() => buildCodexArgs({ sessionId: '--dangerously-bypass-approvals-and-sandbox' })).toThrow(/sessionId .* must be a Codex thread id/);
    expect(() => buildCodexArgs({ model: '--full-auto' })).toThrow(/model/);
    expect(() => buildCodexArgs({ reasoningEffort: 'high" -c sandbox="danger' })).toThrow(/reasoningEffort/);
    expect(() => buildCodexArgs({ sandbox: 'none' as never })).toThrow(/sandbox/);
    expect(() => buildCodexArgs({ config: { '--yolo': '1' } })).toThrow(/config key/);
    // A folder named like a flag becomes an absolute path: never read as an option.
    const args = buildCodexArgs({ cwd: '--dangerously-bypass-approvals-and-sandbox' });
    expect(args[args.indexOf('-C') + 1]).toMatch(/^\/.*--dangerously-bypass-approvals-and-sandbox$/);
    expect(() => buildCodexArgs({ hidden: ['relative/state'] })).toThrow(/absolute path/);
  });

  it('hidden paths: a permission profile says the sandbox (no -s, which would void it), after every caller override', () => {
    const args = buildCodexArgs({ hidden: ['/state', '/home/u/.codex'], config: { default_permissions: '":danger-full-access"' } });
    expect(args).not.toContain('-s');
    expect(args.slice(args.indexOf('default_permissions=":danger-full-access"') + 1, -2)).toEqual([
      '-c', 'default_permissions="parley-consultee"',
      '-c', 'permissions.parley-consultee.extends=":read-only"',
      '-c', 'permissions.parley-consultee.filesystem={"/state"="none","/home/u/.codex"="none"}',
    ]);
    expect(buildCodexArgs({ hidden: ['/state'], sandbox: 'workspace-write' })).toContain('permissions.parley-consultee.extends=":workspace"');
    expect(buildCodexArgs({ hidden: ['/state'], sandbox: 'danger-full-access' }).slice(0, 5)).toEqual(['exec', '--color', 'never', '-s', 'danger-full-access']);
  });
});
