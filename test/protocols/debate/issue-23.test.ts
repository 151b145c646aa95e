/**
 * Issue 23: what each model of a debate receives, as it receives it (the requests a scripted
 * OpenAI-compatible server saw): roles for judges and peers, references and options in the reply
 * schema, the last round, agreement from the start, the judges' rubric.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeDebate, runDebateToFile } from '../../../protocols/debate/index.js';
import { debateHtml } from '../../../protocols/report/debate-html.js';
import { debateMarkdown } from '../../../protocols/report/debate-md.js';
import type { DebateConfigInput, DebateTranscript } from '../../../schemas/debate.js';
import { startScriptedChat, type ChatReply, type ChatRequestRecord, type ScriptedChat } from '../../doubles/scripted-chat.js';

const ROLES = ['platform lead', 'product manager', 'security and compliance lead (SOC 2 audit in 6 months)'];
const OPTIONS = ['monorepo', 'polyrepo'];
const question = 'Should our 40 services live in a monorepo or a polyrepo?';

const claim = (id: string, text: string) => ({ id, text });
/** Round 1: everyone says monorepo. Round 2: a qualify, an option in another case, and (d3) an answer off the options first. */
const UNANIMOUS: Record<string, unknown[]> = {
  d1: [
    { answer: 'monorepo', claims: [claim('c1', 'One CI pipeline halves build upkeep.')], evidence: ['ci-costs'] },
    { answer: 'monorepo', claims: [claim('c1', 'Atomic changes still win.')], references: [{ agent: 'Agent 2', claim: 'R1-A2-c1', stance: 'qualify', note: 'the 30% figure is closer to 15%' }] },
  ],
  d2: [
    { answer: 'monorepo', claims: [claim('c1', 'Cross-service changes drop by 30%.')], evidence: ['survey'] },
    { answer: 'Monorepo', claims: [claim('c1', 'Still monorepo.')], references: [{ agent: 'Agent 1', claim: 'R1-A1-c1', stance: 'support' }] },
  ],
  d3: [
    { answer: 'monorepo', claims: [claim('c1', 'One audit trail is easier for SOC 2.')] },
    { answer: 'hybrid', claims: [claim('c1', 'Split the regulated services out.')] },
    { answer: 'polyrepo', claims: [claim('c1', 'Split the regulated services out.')], references: [{ agent: 'Agent 2', claim: 'R1-A2-c1', stance: 'rebut' }] },
  ],
};
const SPLIT: Record<string, unknown[]> = {
  d1: [{ answer: 'monorepo', claims: [claim('c1', 'One pipeline.')] }, { answer: 'monorepo' }],
  d2: [{ answer: 'polyrepo', claims: [claim('c1', 'Team autonomy.')] }, { answer: 'polyrepo' }],
  d3: [{ answer: 'polyrepo', claims: [claim('c1', 'Separate audit scope.')] }, { answer: 'polyrepo' }],
};

const judgeReply = (prompt: string) =>
  prompt.startsWith('You audit')
    ? { agents: ['Agent 1', 'Agent 2', 'Agent 3'].map((agent) => ({ agent, pillars: { logicalValidity: 0.8, evidentialSupport: 0.7, alternativeConsideration: 0.6, causalAlignment: 0.8 }, flags: [] })) }
    : { agents: ['Agent 1', 'Agent 2', 'Agent 3'].map((agent) => ({ agent, verdict: 'CONSISTENT', explanation: 'Follows.', confidence: 0.9 })) };

/** Each model's replies in the order its requests come (a repair is the next reply). */
function script(replies: Record<string, unknown[]>) {
  const served = new Map<string, number>();
  return (req: ChatRequestRecord): ChatReply => {
    const prompt = req.messages.at(-1)?.content ?? '';
    if (req.model === 'judge') return { content: JSON.stringify(judgeReply(prompt)) };
    const index = served.get(req.model) ?? 0;
    served.set(req.model, index + 1);
    const reply = replies[req.model]?.[index];
    return reply === undefined ? { status: 500 } : { content: JSON.stringify(reply) };
  };
}

interface Run {
  transcript: DebateTranscript;
  requests: ChatRequestRecord[];
}

let work: string;
const servers: ScriptedChat[] = [];
async function run(replies: Record<string, unknown[]>, extra: Partial<DebateConfigInput>, name: string, variant: 'pillars' | 'both' = 'pillars'): Promise<Run> {
  const server = await startScriptedChat(script(replies));
  servers.push(server);
  const spec = (model: string) => `openai-compatible:${server.baseUrl}#${model}`;
  const config: DebateConfigInput = {
    question,
    options: OPTIONS,
    rounds: 2,
    agents: ['d1', 'd2', 'd3'].map((model, index) => ({ model: spec(model), role: ROLES[index]! })),
    crit: { judge: spec('judge'), variant },
    rca: { judge: spec('judge') },
    ...extra,
  };
  const transcript = await runDebateToFile(config, { outPath: join(work, `${name}.json`) });
  return { transcript, requests: server.requests };
}

const systemOf = (requests: ChatRequestRecord[], model: string) => requests.find((req) => req.model === model)!.messages[0]!.content;
const lastUser = (req: ChatRequestRecord) => req.messages.at(-1)!.content;
const judgePrompts = (requests: ChatRequestRecord[], opening: string) => requests.filter((req) => req.model === 'judge' && lastUser(req).startsWith(opening)).map(lastUser);
const debaterRound = (requests: ChatRequestRecord[], model: string, round: number) =>
  requests.filter((req) => req.model === model && req.messages.filter((m) => m.role === 'user').length === round).map(lastUser)[0]!;

let visible: Run;
let judgesOnly: Run;
let hidden: Run;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-issue-23-'));
  visible = await run(UNANIMOUS, { stop: { onUnanimity: false } }, 'visible', 'both');
  judgesOnly = await run(SPLIT, { roleVisibility: 'judges' }, 'judges');
  hidden = await run(SPLIT, { roleVisibility: 'none', rounds: 1, rca: undefined }, 'hidden');
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await rm(work, { recursive: true, force: true });
});

describe('roles: part of what judges score against, visible to peers unless hidden', () => {
  it('shows every CRIT and RCA prompt the roles, with what a role premise is', () => {
    const judged = [...judgePrompts(visible.requests, 'You audit'), ...judgePrompts(visible.requests, 'You check')];
    expect(judged).toHaveLength(3);
    for (const prompt of judged) {
      expect(prompt).toContain(`- Agent 3: role ${JSON.stringify(ROLES[2])}`);
      expect(prompt).toContain('a premise its role states is not an unsupported claim, and arguing from its role is not conclusion drift');
      expect(prompt).toContain("The agents saw each other's roles.");
    }
  });

  it('shows each debater the others\' roles by default, never its own twice', () => {
    const system = systemOf(visible.requests, 'd1');
    expect(system).toContain(`Your role or stance: ${ROLES[0]}`);
    expect(system).toContain(`- Agent 2: role ${JSON.stringify(ROLES[1])}`);
    expect(system).toContain(`- Agent 3: role ${JSON.stringify(ROLES[2])}`);
    expect(system).not.toContain(`- Agent 1: role`);
    expect(visible.transcript.roleVisibility).toBe('all');
  });

  it('roleVisibility judges: peers see no role but their own, judges see all and are told the peers did not', () => {
    const system = systemOf(judgesOnly.requests, 'd1');
    expect(system).toContain(`Your role or stance: ${ROLES[0]}`);
    expect(system).not.toContain(ROLES[2]);
    expect(system).toContain('The others are: Agent 2, Agent 3.');
    const crit = judgePrompts(judgesOnly.requests, 'You audit');
    expect(crit.every((prompt) => prompt.includes(`- Agent 3: role ${JSON.stringify(ROLES[2])}`) && prompt.includes("The agents did not see each other's roles."))).toBe(true);
    expect(judgesOnly.transcript.roleVisibility).toBe('judges');
  });

  it('roleVisibility none: nobody but the agent itself sees its role', () => {
    expect(systemOf(hidden.requests, 'd1')).not.toContain(ROLES[2]);
    const [crit] = judgePrompts(hidden.requests, 'You audit');
    expect(crit).not.toContain(ROLES[2]);
    expect(crit).not.toContain('The roles the agents were given');
    expect(hidden.transcript.roleVisibility).toBe('none');
  });
});

describe('the reply schema a debater receives', () => {
  const schemaOf = (req: ChatRequestRecord) => req.body.response_format.json_schema.schema;

  it('requires the agent and the claim id of every reference, with qualify among the stances', () => {
    const reference = schemaOf(visible.requests.find((req) => req.model === 'd1')!).properties.references.items;
    expect(reference.required).toEqual(['agent', 'claim', 'stance']);
    expect(reference.properties.stance.enum).toEqual(['rebut', 'qualify', 'support', 'concede', 'extend']);
  });

  it('makes the answer and the distribution keys enums of the options', () => {
    const schema = schemaOf(visible.requests.find((req) => req.model === 'd2')!);
    expect(schema.properties.answer.enum).toEqual(OPTIONS);
    expect(schema.properties.distribution.propertyNames.enum).toEqual(OPTIONS);
  });

  it('reads another case of an option as the option, and repairs an answer off the options, quoting them', () => {
    const [, round2] = visible.transcript.rounds;
    const byAgent = Object.fromEntries(round2!.turns.map((turn) => [turn.agentId, turn]));
    expect(byAgent['agent-2']!.record!.answer).toBe('monorepo');
    expect(byAgent['agent-3']!.record!.answer).toBe('polyrepo');
    const repair = visible.requests.filter((req) => req.model === 'd3').map(lastUser).find((prompt) => prompt.startsWith('Your previous reply could not be used'));
    expect(repair).toContain('must be one of the options: "monorepo", "polyrepo"');
  });

  it('lists in words exactly the fields the schema has, with no JSON template or // comments in the system prompt', () => {
    const req = visible.requests.find((candidate) => candidate.model === 'd1')!;
    const system = req.messages[0]!.content;
    expect(system).not.toContain('//');
    expect(system).not.toMatch(/"<[^"]*>"/);
    const named = [...system.slice(system.indexOf('Its fields:')).matchAll(/^- "(\w+)"/gm)].map((match) => match[1]);
    expect(named.sort()).toEqual(Object.keys(schemaOf(req).properties).sort());
  });
});

describe('the round prompts', () => {
  it('says the last round is the last, and earlier rounds that more may come', () => {
    expect(debaterRound(visible.requests, 'd1', 1)).toContain('Round 1 of up to 2: give your opening response.');
    const last = debaterRound(visible.requests, 'd1', 2);
    expect(last).toContain('Round 2 of 2, the last round: the debate ends after it and no agent will reply to your response');
    expect(last).not.toContain('of up to');
  });

  it('when every agent opened with the same answer, asks to test it instead of dealing with opposing arguments', () => {
    const shared = 'Every agent answered "monorepo" in round 1, so there is no opposing answer to engage. Test the shared answer instead: find its weakest step';
    expect(['d1', 'd2', 'd3'].every((model) => debaterRound(visible.requests, model, 2).includes(shared))).toBe(true);
    expect(debaterRound(judgesOnly.requests, 'd1', 2)).not.toContain('Every agent answered');
  });

  it('keeps the seed\'s soft constraint without asking to cite every claim', () => {
    const system = systemOf(visible.requests, 'd1');
    expect(system).toContain('Address any opposing arguments that materially affect your recommendation. If you choose not to engage a claim, your silence may be interpreted as implicit acceptance.');
    expect(system).toContain('That reading covers only opposing claims that bear on your recommendation: you need not reference any other claim');
    expect(system).not.toContain('a claim you leave unanswered may be taken as one you accept');
    expect(system).toContain('qualify: you accept its conclusion but dispute a part of it (a figure, a premise, its scope)');
  });
});

describe('the judges\' rubric', () => {
  it('CRIT: credibility of an agent\'s own estimate, round N-1 as context, same-round critiques never ignored', () => {
    const [first, second] = judgePrompts(visible.requests, 'You audit');
    expect(first).toContain('In round 1 there are no earlier critiques, so ignored_critiques does not apply.');
    expect(second).toContain('Round 1 responses (what the agents had read when they wrote round 2; context only, do not score them):');
    expect(second).toContain('ignored_critiques means a round 1 critique that bears on the agent\'s answer and that it left unanswered.');
    expect(second).toContain('a critique made in round 2 is never one an agent ignored');
    expect(first).toContain('a figure or estimate the agent gives as its own, citing no source, by how plausible and transparently derived it is, neither high because it is asserted nor minimal because it cites nothing');
  });

  it('RCA: accepting a critique with a reason it does not change the answer is consistent; same-round critiques are out', () => {
    const [rca] = judgePrompts(visible.requests, 'You check');
    expect(rca).toContain("accepts a critique's point and says why it does not change the answer");
    expect(rca).toContain('INCONSISTENT_STUBBORN (it kept its answer although its own reasoning accepts a critique that defeats that answer, and gives no reason why the answer survives)');
    expect(rca).toContain('a critique made in round 2 is never one an agent ignored');
    expect(rca).toContain('the Answer line is still its answer and the mismatch is a calibration slip');
  });
});

describe('qualify in the measures', () => {
  it('is an edge and a reference, not a rebuttal', () => {
    const analysis = analyzeDebate(visible.transcript);
    const round2 = analysis.measures.rounds[1]!;
    expect(analysis.graph.edges.filter((edge) => edge.kind === 'agent' && edge.round === 2).map((edge) => `${edge.from}>${edge.to}:${edge.stance}`).sort()).toEqual([
      'agent-1>agent-2:qualify',
      'agent-2>agent-1:support',
      'agent-3>agent-2:rebut',
    ]);
    // One rebut pair (3 -> 2) of 3 * 2 = 6; three referencing pairs of 6.
    expect(round2.rebuttalDensity).toBeCloseTo(1 / 6, 6);
    expect(round2.referenceDensity).toBeCloseTo(3 / 6, 6);
  });
});

describe('reports name the condition', () => {
  it('Markdown and HTML say who saw the roles, and an older transcript reads as the agent alone', async () => {
    expect(debateMarkdown(visible.transcript)).toContain('identities: anonymised (Agent n) · roles seen by: the other agents and the judges');
    expect(debateMarkdown(hidden.transcript)).toContain('roles seen by: only the agent itself');
    const { roleVisibility: _dropped, ...older } = judgesOnly.transcript;
    expect(debateMarkdown(older)).toContain('roles seen by: only the agent itself');
    expect(await debateHtml(judgesOnly.transcript)).toContain('<span>roles seen by <b>the judges, not the other agents</b></span>');
  });
});
