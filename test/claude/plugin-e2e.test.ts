/**
 * The whole chain on one machine, offline: the real `claude -p` (isolated home) loads this
 * repository as a plugin, invokes the parley skill, starts parley's bundled server itself and calls
 * its tools; parley runs the real codex binary, which answers from the scripted Responses server.
 * Only the two hosted models are scripted, and both decide from what they are sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { startScriptedAnthropic } from '../servers/scripted-anthropic.js';
import { startScriptedResponses, type ScriptedResponsesServer } from '../servers/scripted-responses.js';
import { claudeBin, createClaudeHome } from '../servers/claude-home.js';
import { makeCodexHome, type CodexHome } from '../servers/codex-home.js';
import { openAuditLog } from '../../state/audit-log.js';
import type { Plan } from './orchestrator.js';
import { consulteeScript, orchestratorScript, PLUGIN_TOOL_PREFIX, SKILL_NAME, type OrchestratorLog } from './scripted-orchestrator.js';
import { defenseReply, firstReply, quickPlan, standardPlan } from './plans.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const codexBin = path.join(repoRoot, 'node_modules/.bin/codex');

interface Outcome {
  result: { result: string; is_error: boolean; num_turns: number; permission_denials?: unknown[] };
  log: OrchestratorLog;
  codex: ScriptedResponsesServer;
  /** CLAUDE_PLUGIN_DATA of a --plugin-dir plugin: parley's PARLEY_STATE_DIR. */
  pluginData: string;
  deliberationId: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * `invocation: 'model'`: the scripted model calls the Skill tool; parley's tools are approved with
 * --allowedTools as a headless user would. `'user'`: the prompt is `/parley:parley ...`, and only the
 * skill's own allowed-tools frontmatter approves parley's tools.
 */
async function deliberate(plan: Plan, consultee: (req: { body: any }) => any, invocation: 'model' | 'user'): Promise<Outcome> {
  const codex = await startScriptedResponses(consultee);
  const codexHome: CodexHome = await makeCodexHome(codex.baseUrl);
  const log: OrchestratorLog = { calls: [], skillLoaded: false, errors: [] };
  const anthropic = await startScriptedAnthropic(orchestratorScript(plan, log));
  const home = await createClaudeHome(anthropic.baseUrl);
  cleanups.push(codex.close, codexHome.cleanup, anthropic.close, home.remove);
  const prompt = invocation === 'user' ? `/parley:parley ${plan.question}` : `Deliberate with Codex: ${plan.question}`;
  const allowed = invocation === 'user' ? 'Skill' : `Skill,${PLUGIN_TOOL_PREFIX}*`;
  // The repository itself is a plugin (for a checkout), and plugin/ is the folder the marketplace installs.
  const pluginDir = invocation === 'model' ? repoRoot : path.join(repoRoot, 'plugin');
  const run = await execa(claudeBin, ['-p', prompt, '--output-format', 'json', '--plugin-dir', pluginDir, '--allowedTools', allowed], {
    cwd: home.cwd,
    env: { ...home.env, CODEX_HOME: codexHome.codexHome, PARLEY_CODEX_PATH: codexBin },
    extendEnv: false,
    reject: false,
    input: '',
    timeout: 240_000,
  });
  if (run.exitCode !== 0) throw new Error(`claude -p failed (${run.exitCode}): ${run.stderr.slice(-2000)}\n${run.stdout.slice(-2000)}`);
  const started = log.calls.find((c) => c.name === `${PLUGIN_TOOL_PREFIX}delib_consult`);
  return {
    result: JSON.parse(run.stdout),
    log,
    codex,
    pluginData: path.join(home.configDir, 'plugins', 'data', 'parley-inline'),
    deliberationId: String(started?.input.deliberationId ?? ''),
  };
}

const toolsCalled = (log: OrchestratorLog) => log.calls.map((c) => c.name.replace(PLUGIN_TOOL_PREFIX, ''));

describe('Claude Code runs a deliberation through the parley plugin', () => {
  let quick: Outcome;
  let standard: Outcome;
  beforeAll(async () => {
    [quick, standard] = await Promise.all([
      deliberate(quickPlan, consulteeScript(firstReply.quick, defenseReply), 'model'),
      deliberate(standardPlan, consulteeScript(firstReply.standard, defenseReply), 'user'),
    ]);
  }, 300_000);

  it('quick mode (the model invokes the skill): it loads, Codex answers once, the report comes back, nothing is written', async () => {
    expect(quick.log.errors).toEqual([]);
    expect(quick.log.calls[0]).toEqual({ name: 'Skill', input: { skill: SKILL_NAME, args: quickPlan.question } });
    expect(quick.log.skillLoaded).toBe(true);
    expect(toolsCalled(quick.log)).toEqual(['Skill', 'delib_start', 'delib_consult', 'point_triage', 'point_triage', 'point_evaluate', 'point_evaluate', 'iteration_advance', 'delib_synthesize']);
    expect(quick.deliberationId).toMatch(/^d-\d{8}-\d{6}-[0-9a-f]{6}$/);
    // The real codex got parley's first prompt, with the question verbatim and the user's constraint.
    expect(quick.codex.requests).toHaveLength(1);
    const prompt = JSON.stringify(quick.codex.requests[0]?.body.input);
    expect(prompt).toContain(quickPlan.question);
    expect(prompt).toContain('no new managed services');
    expect(quick.result.is_error).toBe(false);
    expect(quick.result.permission_denials ?? []).toEqual([]);
    expect(quick.result.result).toContain(`Deliberation ${quick.deliberationId} is synthesized`);
    expect(quick.result.result).toMatch(/2 agreed, 0 dismissed, 0 unresolved/);
    // Quick mode is stateless: no deliberation file in the plugin's data folder.
    const files = await readdir(path.join(quick.pluginData, 'deliberations')).catch(() => []);
    expect(files.filter((f) => f.startsWith(quick.deliberationId))).toEqual([]);
  });

  it('standard mode (/parley:parley from plugin/, tools approved by the skill alone): a challenge is raised, defended with evidence and accepted; state file, audit log and report agree', async () => {
    expect(standard.log.errors).toEqual([]);
    expect(standard.log.skillLoaded).toBe(true);
    expect(standard.result.permission_denials ?? []).toEqual([]);
    const tools = toolsCalled(standard.log);
    expect(tools[0]).toBe('delib_start');
    expect(tools.filter((t) => t === 'delib_consult')).toHaveLength(3);
    const resolve = standard.log.calls.find((c) => c.name.endsWith('__challenge_resolve'));
    expect(resolve?.input).toMatchObject({ challengeId: 'C1', verdict: 'accepted', evidenceType: 'textual' });
    expect(standard.codex.requests).toHaveLength(3);
    expect(JSON.stringify(standard.codex.requests[1]?.body.input)).toContain('C1');

    const dir = path.join(standard.pluginData, 'deliberations');
    const state = JSON.parse(await readFile(path.join(dir, `${standard.deliberationId}.json`), 'utf8'));
    const value = state.value ?? state;
    expect(value).toMatchObject({ mode: 'standard', framing: 'critique-design', status: 'terminated', termination: { reason: 'convergence' } });
    expect(value.challenges).toEqual([expect.objectContaining({ id: 'C1', pointId: 'P1.1', type: 'SKEPTICAL', resolution: 'accepted' })]);
    expect(value.buckets.agreed.map((a: { pointId: string }) => a.pointId).sort()).toEqual(['P1.1', 'P1.2']);
    expect(value.ledger.map((f: { tag: string }) => f.tag)).toEqual(['user', 'revision']);
    expect(value.report.markdown).toContain('## AGREED');
    expect(value.report.markdown).toContain('P1.1');

    const audit = await openAuditLog(path.join(dir, `${standard.deliberationId}.audit.jsonl`)).readAll();
    const replies = audit.filter((r: any) => r.type === 'consult-reply');
    expect(replies.map((r: any) => r.iteration)).toEqual([1, 2, 3]);
    expect(String((replies[1] as any).reply)).toMatch(/^Re C1: failures are correlated/);
    const moves = audit.filter((r: any) => r.type === 'move').map((r: any) => r.move);
    expect(moves).toEqual(expect.arrayContaining(['delib_start', 'point_evaluate', 'challenge_resolve', 'iteration_advance', 'delib_synthesize']));

    expect(standard.result.result).toContain(`Deliberation ${standard.deliberationId} is synthesized`);
    expect(standard.result.result).toMatch(/2 agreed, 0 dismissed/);
  });
});
