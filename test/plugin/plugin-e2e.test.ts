/**
 * The whole chain on one machine, offline: the real `claude -p` (isolated home) loads this
 * repository as a plugin, invokes the parley skill, starts parley's bundled server itself and calls
 * its tools the way SKILL.md teaches (delib_start, one delib_judge per iteration, the last one with
 * the synthesis, delib_arbitrate in standard mode); parley runs the real codex binary, which answers
 * from the scripted Responses server. Only the two hosted models are scripted, and both decide from
 * what they are sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { startScriptedAnthropic } from '../doubles/scripted-anthropic.js';
import { startScriptedResponses, type ScriptedResponsesServer } from '../doubles/scripted-responses.js';
import { claudeBin, createClaudeHome } from '../doubles/claude-home.js';
import { makeCodexHome, type CodexHome } from '../doubles/codex-home.js';
import { openAuditLog } from '../../state/audit-log.js';
import type { Plan } from './orchestrator.js';
import { ARBITRATION_MARKER, consulteeScript, orchestratorScript, parleyPrompt, PLUGIN_TOOL_PREFIX, SKILL_NAME, type OrchestratorLog } from './scripted-orchestrator.js';
import { arbitrationReply, defenseReply, firstReply, objectionReply, quickPlan, standardPlan, USER_QUESTION } from './plans.js';

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
  const judged = log.calls.find((c) => c.name === `${PLUGIN_TOOL_PREFIX}delib_judge`);
  return {
    result: JSON.parse(run.stdout),
    log,
    codex,
    pluginData: path.join(home.configDir, 'plugins', 'data', 'parley-inline'),
    deliberationId: String(judged?.input.deliberationId ?? ''),
  };
}

const toolsCalled = (log: OrchestratorLog) => log.calls.map((c) => c.name.replace(PLUGIN_TOOL_PREFIX, ''));
/** The calls that decide something: a delib_consult or delib_arbitrate that only keeps waiting (a slow machine) is left out. */
const decisions = (log: OrchestratorLog) => toolsCalled(log).filter((tool, i, all) => !(tool === 'delib_consult' || (tool === 'delib_arbitrate' && all[i - 1] === 'delib_arbitrate')));
const codexPrompts = (codex: ScriptedResponsesServer) => codex.requests.map((r) => parleyPrompt(r.body));
const replies = (first: string) => ({ first, defense: defenseReply, objection: objectionReply, arbitration: arbitrationReply });

describe('Claude Code runs a deliberation through the parley plugin', () => {
  let quick: Outcome;
  let standard: Outcome;
  beforeAll(async () => {
    [quick, standard] = await Promise.all([
      deliberate(quickPlan, consulteeScript(replies(firstReply.quick)), 'model'),
      deliberate(standardPlan, consulteeScript(replies(firstReply.standard)), 'user'),
    ]);
  }, 300_000);

  it('quick mode (the model invokes the skill): start, one judgment with an objection, one with the placement and the synthesis; two Codex turns, nothing written', async () => {
    expect(quick.log.errors).toEqual([]);
    expect(quick.log.calls[0]).toEqual({ name: 'Skill', input: { skill: SKILL_NAME, args: quickPlan.question } });
    expect(quick.log.skillLoaded).toBe(true);
    expect(decisions(quick.log)).toEqual(['Skill', 'delib_start', 'delib_judge', 'delib_judge']);
    expect(quick.deliberationId).toMatch(/^d-\d{8}-\d{6}-[0-9a-f]{6}$/);
    const [objecting, closing] = quick.log.calls.filter((c) => c.name.endsWith('__delib_judge'));
    expect(objecting?.input).toMatchObject({ points: [{ id: 'P1.1', verdict: 'AGREE' }, { id: 'P1.2', verdict: 'SKEPTICAL' }], phase: { advance: true } });
    expect(objecting?.input).not.toHaveProperty('synthesis');
    expect(closing?.input).toMatchObject({ points: [{ id: 'P1.2', bucket: 'agreed' }], synthesis: quickPlan.synthesis });

    // The real codex got parley's prompts: the question verbatim and the user's constraint, then the
    // objection by point id. Quick mode never names a challenge id.
    expect(quick.codex.requests).toHaveLength(2);
    const [first, second] = codexPrompts(quick.codex);
    expect(first).toContain(quickPlan.question);
    expect(first).toContain('no new managed services');
    expect(second).toContain('Re P1.2');
    expect(second).not.toMatch(/\bC\d+\b/);

    expect(quick.result.is_error).toBe(false);
    expect(quick.result.permission_denials ?? []).toEqual([]);
    expect(quick.result.result).toContain(`Deliberation ${quick.deliberationId} is synthesized`);
    expect(quick.result.result).toMatch(/report ready: 2 agreed, 0 dismissed, 0 unresolved/);
    expect(quick.result.result).toContain(quickPlan.synthesis.recommendation);
    // The partial concession: the point stands as Codex narrowed it.
    expect(quick.result.result).toContain('Memcached has no persistence settings to get wrong');
    // Quick mode is stateless: no deliberation file in the plugin's data folder.
    const files = await readdir(path.join(quick.pluginData, 'deliberations')).catch(() => []);
    expect(files.filter((f) => f.startsWith(quick.deliberationId))).toEqual([]);
  });

  it('standard mode (/parley:parley from plugin/, tools approved by the skill alone): a question surfaced from the reading, a challenge defended and accepted, the synthesis with the last judgment, then arbitration; state file, audit log and report agree', async () => {
    expect(standard.log.errors).toEqual([]);
    expect(standard.log.skillLoaded).toBe(true);
    expect(standard.result.permission_denials ?? []).toEqual([]);
    expect(decisions(standard.log)).toEqual(['delib_start', 'delib_judge', 'delib_judge', 'delib_judge', 'delib_arbitrate']);
    const judgments = standard.log.calls.filter((c) => c.name.endsWith('__delib_judge')).map((c) => c.input);
    expect(judgments[0]).toMatchObject({ reading: [{ ref: 'U1', as: 'question' }], points: [{ id: 'P1.1', verdict: 'SKEPTICAL' }, { id: 'P1.2', verdict: 'AGREE' }] });
    expect(judgments[1]).toMatchObject({ challenges: [{ id: 'C1', verdict: 'accepted', evidenceType: 'textual' }] });
    expect(judgments[2]).toMatchObject({ phase: { advance: true }, synthesis: standardPlan.synthesis });
    expect(judgments.slice(0, 2).every((j) => !('synthesis' in j))).toBe(true);

    // Three consults (the second shows C1, the third nothing open), then the arbiter in a fresh session.
    expect(standard.codex.requests).toHaveLength(4);
    const prompts = codexPrompts(standard.codex);
    expect(prompts[1]).toContain('C1 (SKEPTICAL) on P1.1');
    expect(prompts[2]).toContain('Open challenges: none.');
    expect(prompts[3]).toContain(ARBITRATION_MARKER);
    expect(prompts[3]).not.toMatch(/codex|claude|orchestrator|consultee/i);

    const dir = path.join(standard.pluginData, 'deliberations');
    const state = JSON.parse(await readFile(path.join(dir, `${standard.deliberationId}.json`), 'utf8'));
    const value = state.value ?? state;
    expect(value).toMatchObject({ mode: 'standard', framing: 'critique-design', status: 'terminated', termination: { reason: 'convergence' } });
    expect(value.challenges).toEqual([expect.objectContaining({ id: 'C1', pointId: 'P1.1', type: 'SKEPTICAL', resolution: 'accepted' })]);
    expect(value.buckets.agreed.map((a: { pointId: string }) => a.pointId).sort()).toEqual(['P1.1', 'P1.2']);
    expect(value.surfacedQuestions).toEqual([expect.objectContaining({ text: USER_QUESTION })]);
    expect(value.ledger.map((f: { tag: string }) => f.tag)).toEqual(['user', 'revision']);
    expect(value.recommendation).toMatchObject({ text: standardPlan.synthesis.recommendation, confidence: 'high' });
    expect(value.arbitration).toMatchObject({ items: expect.arrayContaining([expect.objectContaining({ ref: 'P1.2', flagged: true })]), remarks: expect.stringContaining('fixed delay') });
    const report = await readFile(path.join(dir, `${standard.deliberationId}.report.md`), 'utf8');
    expect(report).toContain(standardPlan.synthesis.recommendation);
    expect(report).toContain(USER_QUESTION);

    const audit = await openAuditLog(path.join(dir, `${standard.deliberationId}.audit.jsonl`)).readAll();
    const consulted = audit.filter((r: any) => r.type === 'consult-reply');
    expect(consulted.map((r: any) => r.iteration)).toEqual([1, 2, 3]);
    expect(String((consulted[1] as any).reply)).toMatch(/^Re C1: failures are correlated/);
    const moves = audit.filter((r: any) => r.type === 'move' && !r.refusal).map((r: any) => r.move);
    expect(moves).toEqual(['delib_start', 'reply_record', 'judge', 'reply_record', 'judge', 'reply_record', 'judge', 'arbitration_record']);

    expect(standard.result.result).toContain(`Deliberation ${standard.deliberationId} is synthesized`);
    expect(standard.result.result).toMatch(/Arbitration flagged .*: P1\.2 \(a value judgment/);
    expect(standard.result.result).toContain(standardPlan.synthesis.recommendation);
  });
});
