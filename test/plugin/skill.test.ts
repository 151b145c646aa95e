import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { listRegisteredTools } from '../../mcp-server/tool-reference.js';
import { leanResult } from '../../mcp-server/tools/delib-shared.js';
import { briefWithRecord } from '../../mcp-server/report-file.js';
import { applyMove, FRAMINGS, replyView, startDeliberation, type MoveResult } from '../../protocols/argumentation/index.js';
import { UnresolvedItem, type DeliberationState } from '../../schemas/argumentation.js';
import { DebateConfig } from '../../schemas/debate.js';
import { DialogicConfig } from '../../schemas/dialogic.js';
import { relatedDecisions } from '../../mcp-server/decisions.js';
import type { ServerDeps } from '../../mcp-server/deps.js';
import { FIXTURE_FOLDER } from '../protocols/decisions/fixture.js';
import { keysOf, mentionedFieldNames, mentionedToolNames, readSkill, repoRoot, schemaPropertyNames, skillDocuments } from './skill-files.js';

// The keys Claude Code 2.1 accepts in SKILL.md frontmatter (research/claude-code.md).
const FRONTMATTER_KEYS = new Set(['name', 'description', 'when_to_use', 'model', 'effort', 'allowed-tools', 'disallowed-tools', 'argument-hint', 'disable-model-invocation', 'user-invocable', 'context', 'agent', 'paths', 'hooks', 'shell']);

let tools: Tool[];
let registered: Set<string>;
beforeAll(async () => {
  tools = await listRegisteredTools();
  registered = new Set(tools.map((tool) => tool.name));
});

describe('SKILL.md', () => {
  it('is well under 500 lines', async () => {
    const { text } = await readSkill();
    expect(text.split('\n').length).toBeLessThan(500);
  });

  it('has frontmatter Claude Code accepts: known keys, a kebab-case name, a description', async () => {
    const { frontmatter } = await readSkill();
    expect(Object.keys(frontmatter).filter((key) => !FRONTMATTER_KEYS.has(key))).toEqual([]);
    expect(frontmatter.name).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(typeof frontmatter.description).toBe('string');
    expect((frontmatter.description as string).length).toBeGreaterThan(80);
    expect((frontmatter.description as string).length).toBeLessThan(1024);
  });

  it('pre-approves exactly the tools parley registers, in the plugin form Claude Code shows', async () => {
    const { frontmatter } = await readSkill();
    const allowed = frontmatter['allowed-tools'];
    expect(Array.isArray(allowed)).toBe(true);
    const names = (allowed as string[]).map((entry) => {
      expect(entry).toMatch(/^mcp__plugin_parley_parley__[a-z_]+$/);
      return entry.replace('mcp__plugin_parley_parley__', '');
    });
    expect(new Set(names)).toEqual(registered);
  });

  it('names every framing the server accepts, and only those', async () => {
    const { body } = await readSkill();
    const table = [...body.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]).filter((name) => !['quick', 'minimal', 'standard'].includes(name ?? ''));
    expect(new Set(table)).toEqual(new Set(Object.keys(FRAMINGS)));
  });

  it('points only at reference files that exist', async () => {
    for (const [file, text] of await skillDocuments()) {
      for (const match of text.matchAll(/`(skill\/[\w./-]+\.md)`/g)) {
        expect(existsSync(path.join(repoRoot, match[1] ?? '')), `${file} refers to ${match[1]}`).toBe(true);
      }
    }
  });
});

describe('quick mode in SKILL.md (issue 21, item 11)', () => {
  it('has a path that needs no other file, and says the constraints are its facts', async () => {
    const { body } = await readSkill();
    const path = /\*\*Quick mode needs only this file\*\*[\s\S]*?\n\n[\s\S]*?\n\n/.exec(body)?.[0] ?? '';
    for (const step of ['delib_start', 'mode: "quick"', 'constraints', 'delib_judge', 'verdict', 'flaw', 'advance', 'bucket', 'synthesis']) expect(path, step).toContain(step);
    expect(path).not.toMatch(/`skill\/[\w./-]+\.md`/);
    expect(body).not.toMatch(/keeps no ledger/);
    expect(body).toMatch(/`constraints` become `user` facts[\s\S]{0,200}situation[\s\S]{0,60}team size/);
  });
});

describe('tool names in SKILL.md and skill/', () => {
  it('SKILL.md names every argumentation and run tool it pre-approves', async () => {
    const { body } = await readSkill();
    expect([...registered].filter((name) => !mentionedToolNames(body).has(name))).toEqual([]);
  });

  it('every tool a document mentions is registered by the server', async () => {
    const unknown: string[] = [];
    let mentioned = 0;
    for (const [file, text] of await skillDocuments()) {
      for (const name of mentionedToolNames(text)) {
        mentioned++;
        if (!registered.has(name)) unknown.push(`${file}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(mentioned).toBeGreaterThan(20);
  });

  it('the name check catches a wrong name', () => {
    expect([...mentionedToolNames('call `delib_begin` then mcp__plugin_parley_parley__run_go; `waitSeconds` is an argument')]).toEqual(['delib_begin', 'run_go']);
  });
});

/** The keys a deliberation's results show the orchestrator: a lean result, and replies read in quick and minimal mode. */
function resultKeys(): Set<string> {
  const ctx = { now: '2026-01-01T00:00:00.000Z' };
  const ok = (result: MoveResult): DeliberationState => {
    if (!result.ok) throw new Error(result.refusal.message);
    return result.state;
  };
  let quick = ok(startDeliberation({ question: 'Redis or Memcached?', mode: 'quick', framing: 'compare' }, { ...ctx, id: 'd-q' }));
  quick = ok(applyMove(quick, 'reply_record', { text: '1. Redis persists sessions. INFERENCE\n2. Memcached is simpler to run. INFERENCE\n\nDo you need sessions to survive a restart?' }, ctx));
  const keys = keysOf([replyView(quick), leanResult(quick, [], [{ item: 'points[0]', ref: 'P1.1', rule: 'r', message: 'm', legal: [] }])]);
  quick = ok(applyMove(quick, 'judge', { points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a judgment the constraints support' }, { id: 'P1.2', verdict: 'SKEPTICAL', flaw: 'Both are one package.' }], phase: { advance: true } }, ctx));
  quick = ok(applyMove(quick, 'reply_record', { text: 'Re P1.2: partly conceded, but the narrower claim is: Memcached has no persistence to configure. INFERENCE' }, ctx));
  keysOf(replyView(quick), keys);
  // A new argument in DEVELOPMENT is read but not evaluated; evidence on a point in CRYSTALLIZATION must be decisive.
  const late = ok(startDeliberation({ question: 'Which queue?', mode: 'minimal' }, { ...ctx, id: 'd-m' }));
  keysOf(replyView(ok(applyMove({ ...late, n: 3, phase: 'DEVELOPMENT' }, 'reply_record', { text: '1. Use SQS. INFERENCE' }, ctx))), keys);
  const first = ok(applyMove(late, 'reply_record', { text: '1. Use SQS. INFERENCE' }, ctx));
  const evidence = '1. P1.1 holds at our load: a measured p99 of 2 ms. EVIDENCE: bench.txt:3 "p99 2ms"';
  keysOf(replyView(ok(applyMove({ ...first, n: 6, phase: 'CRYSTALLIZATION', replyRecorded: false }, 'reply_record', { text: evidence }, ctx))), keys);
  // An answer with numbered items, a point that replaces an earlier one, an answer that leaves its kept claim unsaid.
  let std = ok(applyMove(ok(applyMove(late, 'reply_record', { text: '1. Use SQS. INFERENCE\n2. Use SNS too. GUESS' }, ctx)), 'judge', { points: [{ id: 'P1.1', verdict: 'SKEPTICAL', flaw: 'SQS adds a vendor.' }, { id: 'P1.2', verdict: 'AGREE', claimType: 'value', reason: 'fan-out is cheap there' }], phase: { advance: true } }, ctx));
  std = ok(applyMove(std, 'reply_record', { text: 'Re C1: Fair point. The vendor is already used for email. The team knows its console well. Queue semantics match.\n\nRe C1 also, what I still claim:\n\n1. INFERENCE: one vendor fewer to learn.\n\n2. GUESS: Replaces P1.2: use EventBridge instead of SNS.' }, ctx));
  keysOf(replyView(std), keys);
  const judgedStd = ok(applyMove(late, 'reply_record', { text: '1. Use SQS. INFERENCE' }, ctx));
  const unsaid = ok(applyMove(ok(applyMove(judgedStd, 'judge', { points: [{ id: 'P1.1', verdict: 'SKEPTICAL', flaw: 'SQS adds a vendor.' }], phase: { advance: true } }, ctx)), 'reply_record', { text: 'Re C1: I concede C1 in part.' }, ctx));
  keysOf(replyView(unsaid), keys);
  // The closing result: its brief (a change, a claim ruled out, one left open, a question, caveats), and the unresolved statuses.
  const asked = ok(applyMove(ok(startDeliberation({ question: 'Redis or Memcached?', mode: 'quick' }, { ...ctx, id: 'd-s' })), 'reply_record', { text: '1. Redis persists sessions. INFERENCE\n2. Memcached is older. GUESS\n3. Memcached is faster. GUESS\n4. Redis needs a cluster. GUESS' }, ctx));
  const objected = ok(applyMove(asked, 'judge', { points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'sessions must survive' }, { id: 'P1.2', verdict: 'SKEPTICAL', flaw: 'Age says nothing here.' }, { id: 'P1.3', verdict: 'SKEPTICAL', flaw: 'No benchmark.' }, { id: 'P1.4', verdict: 'SKEPTICAL', flaw: 'One node suffices.' }], questions: ['What latency do you need?'], phase: { advance: true } }, ctx));
  const answered = ok(applyMove(objected, 'reply_record', { text: 'Re P1.2: I concede it.\n\nRe P1.3: it holds for small values.\n\nRe P1.4: it holds at scale.' }, ctx));
  const placed = [{ id: 'P1.3', bucket: 'unresolved', status: 'tradeoff', crux: 'speed against persistence' }, { id: 'P1.4', bucket: 'dismissed', tag: 'FALSE', reason: 'one node serves 10k sessions' }];
  const closed = ok(applyMove(answered, 'judge', { points: placed, phase: { advance: true }, synthesis: { recommendation: 'Redis.', confidence: 'medium', caveats: ['no load test'] } }, ctx));
  keysOf({ brief: briefWithRecord(closed, 'd-q.report.md') }, keys);
  UnresolvedItem.shape.status.options.forEach((status) => keys.add(status));
  return keys;
}

/** What delib_start adds from a repository's decision records, where two standing ones may contradict. */
async function relatedKeys(): Promise<Set<string>> {
  const repo = await mkdtemp(path.join(tmpdir(), 'parley-skill-decisions-'));
  try {
    await mkdir(path.join(repo, '.git'));
    await cp(FIXTURE_FOLDER, path.join(repo, 'docs', 'adr'), { recursive: true });
    const added = await relatedDecisions({ cwd: repo } as ServerDeps, 'Do we need a second database engine for the catalog?');
    expect(added.decisionConflicts).toBeDefined();
    return keysOf(added);
  } finally {
    await rm(repo, { recursive: true, force: true });
  }
}

describe('field names in SKILL.md and skill/', () => {
  it('every field a document names is in a tool input schema, a run configuration, or a result the orchestrator reads', async () => {
    const known = schemaPropertyNames(tools.map((tool) => tool.inputSchema));
    schemaPropertyNames([z.toJSONSchema(DebateConfig, { io: 'input' }), z.toJSONSchema(DialogicConfig, { io: 'input' })], known);
    resultKeys().forEach((key) => known.add(key));
    (await relatedKeys()).forEach((key) => known.add(key));
    const unknown: string[] = [];
    let mentioned = 0;
    // skill/evals/ documents the eval file for maintainers, not the tools.
    for (const [file, text] of (await skillDocuments()).filter(([file]) => !file.startsWith('skill/evals/'))) {
      for (const name of mentionedFieldNames(text)) {
        mentioned++;
        if (!known.has(name)) unknown.push(`${file}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(mentioned).toBeGreaterThan(30);
  });

  it('SKILL.md teaches the judgment fields and the reading of a reply', async () => {
    const named = mentionedFieldNames((await readSkill()).body);
    for (const field of ['reading', 'claimType', 'advance', 'synthesis', 'recommendation', 'confidence', 'caveats', 'partialConcession', 'narrowedClaim', 'cwd']) {
      expect(named.has(field), field).toBe(true);
    }
  });

  it('the field check catches a wrong name', () => {
    expect([...mentionedFieldNames('give `phase: {advance: true}`, `claimTyp`, `{ref, az?}`, not `path:line`, `claude:sonnet` or `GAP:`')]).toEqual(['phase', 'advance', 'claimTyp', 'ref', 'az']);
  });
});
