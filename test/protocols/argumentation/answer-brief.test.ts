import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerBrief, buildConsulteePrompt, deliberationMarkdown, replyView } from '../../../protocols/argumentation/index.js';
import { plainLines } from '../../../protocols/argumentation/report/plain-lines.js';
import { DeliberationState } from '../../../schemas/argumentation.js';
import { argumentationState } from '../report/fixtures.js';
import { advance, agreeValue, briefOf, judge, judged, points, refusedWith, reply, skeptical, start, withTwoPoints } from './helpers.js';

let state: DeliberationState;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ state, cleanup } = await argumentationState('parley-brief-'));
}, 30_000);

afterAll(() => cleanup());

/** Everything the brief says, as one text: what the answer is written from. */
const said = (brief: object) => Object.values(brief).flat().join('\n');
/** What the user never saw and cannot use: ids, reply labels, absolute paths, parley's URIs. */
const RECORD_TERMS = /\b(?:P\d+\.\d+|[CF]\d+|Q\d+)\b|\b(?:EVIDENCE|INFERENCE|GUESS)\b|(?:^|\s)\/(?:tmp|home|root|var)\/|parley:\/\//;

describe('the brief: what the orchestrator needs for its answer, in words the user can read', () => {
  it('gives the decision, what it turns on and who checked it, what changed, what stays open, the questions and caveats', () => {
    const brief = answerBrief(state);
    expect(brief).toMatchObject({
      decision: expect.stringMatching(/^Use Memcached for the cache\./),
      confidence: 'medium',
      turnsOn: [
        expect.stringMatching(/^persistence matters only for warm restarts after deploys\. — the orchestrator read it in: /),
        expect.stringMatching(/^Memcached is simpler to operate: .* — a value judgment: simplicity matters for a small team$/),
        'A single-host cache dies with its host whichever you pick. — follows from what the user said "The service runs on one host."',
      ],
      changed: [expect.stringMatching(/^Codex narrowed "Redis supports persistence, .*" to "persistence matters only for warm restarts after deploys\." after the orchestrator objected "Persistence is irrelevant for a pure cache\." \(agreed\)\.$/), expect.stringMatching(/^Codex gave up /)],
      open: [expect.stringMatching(/^Redis is faster than Memcached for this workload\. — open: No benchmark backs the speed claim\..* To settle it, measure p99 GET latency under pipelining \(it matters at 1 ms\)\.$/)],
      askUser: ['What p99 latency does the service need?'],
      caveats: ['Revisit if warm restarts start to matter.', expect.stringMatching(/^A caveat with <script>/)],
      reviewer: ['a fresh reviewer flagged 1 of 5 placements', expect.stringMatching(/^flagged "Memcached is simpler to operate: .*": A value claim resting on taste\./), expect.stringMatching(/^The Memcached side was never argued/)],
      record: 'standard mode, 5 iterations, ended by convergence; the full record (ids, versions, evidence)',
    });
  });

  it('holds no id, reply label or path, and no sentence cut without saying where the rest is', () => {
    const { decision, ...rest } = answerBrief(state);
    expect(decision).toBeTruthy();
    expect(said(rest)).not.toMatch(RECORD_TERMS);
    for (const line of Object.values(rest).flat()) expect(line).not.toMatch(/…|\.\.\.$|\[\.\.\. \d+ more characters\]/);
    // A run-on claim is cut at a clause and says so; the full report states it whole.
    expect(rest.turnsOn[1]).toContain('(the rest is in the full record)');
    expect(deliberationMarkdown(state)).toContain('END-OF-P1.2');
    expect(Buffer.byteLength(JSON.stringify(answerBrief(state)))).toBeLessThan(6_000);
  });

  it('keeps a confidence given per aspect', () => {
    let s = judged(withTwoPoints(), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue]), ...advance });
    const aspects = { 'the choice': 'high', 'the deployment': 'medium' };
    s = judged(reply(s, 'No further points.'), { ...advance, synthesis: { recommendation: 'Redis.', confidence: 'medium', aspects } });
    expect(s.recommendation).toEqual({ text: 'Redis.', confidence: 'medium', aspects, caveats: [] });
    expect(briefOf(s).confidence).toBe('medium (high on the choice, medium on the deployment)');
    expect(deliberationMarkdown(s)).toContain('Confidence: **medium** (high on the choice, medium on the deployment)');
  });

  it('reads a state file written before the report was rendered on demand, dropping the copy it kept', () => {
    const old = { ...state, report: { json: { question: state.question, agreed: [] }, markdown: '# an old report, stale' } };
    const parsed = DeliberationState.parse(old);
    expect(parsed.report).toEqual({});
    expect(answerBrief(parsed).turnsOn).toHaveLength(3);
    expect(deliberationMarkdown(parsed)).not.toContain('an old report');
  });
});

// Codex's first answer rests on a false, checkable claim; the orchestrator's run shows it false and Codex reverses.
const FIRST = [
  '1. EVIDENCE: setTimeout caps its delay: a delay over 2147483647 ms overflows and the callback runs at once (`node -e "setTimeout(()=>console.log(1), 2**31)"` printed 1 immediately on /tmp/codex-scratch-a1/overflow.js).',
  '2. INFERENCE: So long reminders must be chained timers: use option A with a 24-day re-arm.',
].join('\n');
const REJECT = {
  verdict: 'REJECT',
  flaw: 'Chained timers are not needed because reminders are stored in the table and polled every minute.',
  claimType: 'empirical',
  evidence: '`node -e "console.time(1);setTimeout(()=>console.timeEnd(1),100)"` on Node 20.20.2 printed 1: 100.4ms; the polled table (F1) holds every reminder',
  terminalWhy: 'the recommendation rests on a timer that the design never uses',
};

function reversed(): DeliberationState {
  let s = start({ mode: 'standard', constraints: ['Reminders live in a Postgres table.'] });
  s = reply(s, FIRST);
  s = judged(s, { ...points(['P1.1', { verdict: 'AGREE', claimType: 'empirical', rerun: 'same output on Node 20.20.2: printed 1 at once' }], ['P1.2', REJECT]), ...advance });
  return s;
}

describe('a reversal on evidence, told as it happened', () => {
  it("quotes the verdict's evidence and its terminal why to Codex, not the flaw alone", () => {
    const s = reversed();
    expect(s.challenges[0]).toMatchObject({ evidence: REJECT.evidence, terminalWhy: REJECT.terminalWhy });
  });

  it("says Codex's first position, what overturned it and where it ended, in plain words", () => {
    let s = reply(reversed(), 'Re C1: I concede C1: polling the table makes the chained timer pointless.\n3. Replaces P1.2: INFERENCE: Use option B, the polled table, with an index on due_at.');
    s = judged(s, { ...points(['P2.3', agreeValue]), ...advance });
    s = judged(reply(s, 'No further points.'), { ...advance, synthesis: { recommendation: 'Poll the table.', confidence: 'high', caveats: [] } });
    const brief = briefOf(s);
    expect(brief.changed).toEqual([
      expect.stringMatching(/^Codex first said "So long reminders must be chained timers: use option A with a 24-day re-arm\."; it changed this after the orchestrator objected "Chained timers are not needed because .*", on the evidence of `node -e .*100\.4ms; the polled table .*, and now says "Use option B, the polled table, with an index on due_at\." \(agreed\)\.$/),
    ]);
    expect(said(brief)).not.toMatch(RECORD_TERMS);
    expect(deliberationMarkdown(s)).toMatch(/## WHAT CHANGED \(1\)\n\n- \*\*P1\.2 → P2\.3:\*\* replaced by Codex after the objection/);
  });
});

describe('confirming Codex\'s own check is one short item', () => {
  it('is Agreed on the re-run, said as Codex\'s check re-run by the orchestrator, its scratch path reduced to the file', () => {
    let s = reversed();
    s = judged(reply(s, 'I concede C1.'), advance);
    s = judged(reply(s, 'No further points.'), { ...advance, synthesis: { recommendation: 'Poll the table.', confidence: 'high', caveats: [] } });
    expect(s.buckets.agreed[0]).toMatchObject({ pointId: 'P1.1', claimType: 'empirical', evidenceType: 'execution', rerun: true, evidence: 'same output on Node 20.20.2: printed 1 at once' });
    const line = briefOf(s).turnsOn[0]!;
    expect(line).toMatch(/^setTimeout caps its delay: .* — Codex ran a check and the orchestrator re-ran it: same output on Node 20\.20\.2: printed 1 at once$/);
    expect(line).toContain('overflow.js');
    expect(line).not.toContain('/tmp/');
  });

  it('is refused for a point Codex gave no check for: its word is not evidence', () => {
    let s = start({ mode: 'standard' });
    s = reply(s, FIRST);
    refusedWith(judge(s, points(['P1.2', { verdict: 'AGREE', rerun: 'same output' }])), 'evidence-gate');
  });
});

describe('agreeing with less than Codex wrote, in every mode, without another round', () => {
  for (const mode of ['standard', 'minimal', 'quick'] as const) {
    it(`${mode}: the claim stands in the orchestrator's wording, Codex's kept as history and told to Codex`, () => {
      let s = start({ mode });
      s = reply(s, '1. INFERENCE: Speed: B wins by a wide margin on every workload.\n2. GUESS: Nothing else matters.');
      const narrower = 'B is modestly faster (about 8%) on the 200k-entry sort measured.';
      s = judged(s, { ...points(['P1.1', { verdict: 'AGREE', claim: narrower, claimType: 'empirical', evidenceType: 'execution', evidence: 'node bench.js on Node 20: A 412 ms, B 380 ms' }], ['P1.2', skeptical]), ...advance });
      const p = s.points.find((x) => x.id === 'P1.1')!;
      expect(p).toMatchObject({ status: 'agreed', narrowed: narrower, narrowedBy: 'orchestrator', text: expect.stringContaining('wide margin') });
      expect(buildConsulteePrompt(s, 'next')).toContain(`P1.1: AGREE, narrower than written: "${narrower}"`);
      expect(deliberationMarkdown(s)).toContain('agreed only as the orchestrator stated it');
      // The brief states the claim as agreed; its changes are Codex's moves only.
      expect(answerBrief(s).turnsOn[0]).toMatch(/^B is modestly faster \(about 8%\) on the 200k-entry sort measured\. — /);
      expect(answerBrief(s).changed).toBeUndefined();
    });
  }

  it('a claim without agreement is refused: it states what a point is agreed as', () => {
    const s = reply(start({ mode: 'standard' }), '1. INFERENCE: Speed: B wins.');
    refusedWith(judge(s, points(['P1.1', { verdict: 'SKEPTICAL', flaw: 'No run shows it.', claim: 'B is faster.' }])), 'nothing-to-restate');
  });
});

describe("Codex's answers reach the orchestrator whole", () => {
  it('shows an answer whose point the same reply replaced, saying what to judge instead', () => {
    let s = judged(withTwoPoints({ mode: 'standard' }), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance });
    s = reply(s, 'Re C1: Right, a pure cache needs no persistence; my run: `redis-cli CONFIG GET save` printed "" (EVIDENCE).\n\n1. Replaces P1.1: INFERENCE: Persistence matters only for warm restarts after deploys.');
    expect(replyView(s).answers).toEqual([
      { challenge: 'C1', point: 'P1.1', closed: 'its point was replaced by P2.1: judge that', text: expect.stringContaining('redis-cli CONFIG GET save') },
    ]);
  });
});

describe('a long deliberation: the brief stays bounded and never empty where the answer needs it', () => {
  it('keeps the first claims of every list past the budget, counting the rest (a real run had 16 agreed claims and showed none)', () => {
    const n = 16;
    let s = start({ mode: 'standard' });
    s = reply(s, Array.from({ length: n }, (_, i) => `${i + 1}. INFERENCE: Claim number ${i + 1} about branded ids holds because ${'the reason is long and specific '.repeat(6)}.`).join('\n'));
    s = judged(s, { ...points(...Array.from({ length: n }, (_, i) => [`P1.${i + 1}`, agreeValue] as [string, object])), ...advance });
    s = judged(reply(s, 'No further points.'), { ...advance, synthesis: { recommendation: `Take option (c). ${'A long recommendation sentence with every step of the plan. '.repeat(15)}`, confidence: 'high', caveats: Array.from({ length: 5 }, (_, i) => `Caveat ${i + 1}: ${'an unmeasured cost the user should weigh. '.repeat(4)}`) } });
    const brief = briefOf(s);
    expect(brief.turnsOn.length).toBeGreaterThanOrEqual(4);
    expect(brief.more).toMatch(/^not shown here for length, in the full record: \d+ agreed claims$/);
    expect(Buffer.byteLength(JSON.stringify(brief))).toBeLessThan(9_000);
  });
});

describe('a claim that introduces a list, in the words of a real A/B deliberation (bigint-ids, kept pair)', () => {
  const record = join(import.meta.dirname, '../../ab/pairs/2026-11-28-bigint-ids-rerun/parley/record/d-20261128-235931-e2776d.json');
  const real = DeliberationState.parse(JSON.parse(readFileSync(record, 'utf8')).value);

  it('ends at the sentence before the list, not at "Concrete changes:"', () => {
    const changed = plainLines(real).changed;
    expect(changed[0]).toContain('Codex first said "Recommendation, revised from my starting position because of item 2: ship (c) this sprint, with a BigInt-backed helper, and keep the API on string ids."');
    expect(changed.join('\n')).not.toMatch(/Concrete changes:/);
  });

  it('says where the list is when nothing precedes its introduction: "the viable form of (b) is:"', () => {
    expect(plainLines(real).changed[1]).toContain('now says "If the team insists on numeric ids in TS, the viable form of (b) is: (the rest is in the full record)"');
  });
});

describe('a change that says what the first version did is no change (a real A/B deliberation: ndjson-import, kept pair)', () => {
  it('leaves out a relabelled claim ("Option B is small." rewritten as "INFERENCE (snippet) + EVIDENCE (line splitting): Option B is small.")', () => {
    const folder = join(import.meta.dirname, '../../ab/pairs/2026-11-29-ndjson-import/parley/record');
    const file = readdirSync(folder).find((name) => name.endsWith('.json'))!;
    const real = DeliberationState.parse(JSON.parse(readFileSync(join(folder, file), 'utf8')).value);
    const changed = plainLines(real).changed;
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^Codex first said "one thing to check after the switch/);
  });
});
