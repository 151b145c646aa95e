/** Scripted debaters for the debate tests: replies routed by model name and round. */
import type { ChatReply, ChatRequestRecord } from '../../doubles/scripted-chat.js';

export type RoundReplies = Record<string, unknown[]>;

/** The round of a debater request: the number of user messages in it (no repairs in play). */
export const roundOf = (req: ChatRequestRecord): number => req.messages.filter((message) => message.role === 'user').length;

/** Routes by `req.model`; `replies[model][round - 1]` is sent as JSON (a string is sent as is). */
export function debaterScript(replies: RoundReplies, delayMs?: number) {
  return (req: ChatRequestRecord): ChatReply => {
    const reply = replies[req.model]?.[roundOf(req) - 1];
    if (reply === undefined) return { status: 500, body: { error: { message: `no script for ${req.model} round ${roundOf(req)}` } } };
    return { content: typeof reply === 'string' ? reply : JSON.stringify(reply), ...(delayMs !== undefined && { delayMs }) };
  };
}

/**
 * Four agents, one question, ground truth "no":
 * round 1: yes / no / Yes / no, with evidence {e1,e2} {e2,e3} {e1} {e4};
 * round 2: everyone says yes (agents 2 and 4 capitulate to agent 1), evidence {e1} {e3} {} {e5};
 * round 3 is scripted but must never be asked for (unanimity stops the debate after round 2).
 */
export const FOUR_AGENT_DEBATE: RoundReplies = {
  m1: [
    { answer: 'yes', claims: [{ id: 'c1', text: 'All tests pass.' }], evidence: ['e1', 'e2'], reasoning: 'Tests are green.' },
    {
      answer: 'yes',
      claims: [{ id: 'c1', text: 'Performance is within budget.' }],
      references: [
        { agent: 'Agent 2', claim: 'R1-A2-c1', stance: 'rebut', note: 'the regression is noise' },
        { agent: 'Agent 4', claim: 'c1', stance: 'rebut' },
      ],
      evidence: ['e1'],
    },
    { answer: 'yes' },
  ],
  m2: [
    { answer: 'no', claims: [{ id: 'c1', text: 'Performance regressed.' }, { id: 'c2', text: 'Docs are missing.' }], evidence: ['e2', 'e3'] },
    { answer: 'yes', claims: [{ id: 'c1', text: 'Tests are enough.' }], references: [{ agent: 'Agent 1', claim: 'R1-A1-c1', stance: 'concede' }], evidence: ['e3'] },
    { answer: 'yes' },
  ],
  m3: [
    { answer: 'Yes', confidence: 0.7, claims: [{ id: 'c1', text: 'Users asked for it.' }], evidence: ['e1'] },
    { answer: 'yes', references: [{ agent: 'Agent 1', claim: 'R1-A1-c1', stance: 'support' }] },
    { answer: 'yes' },
  ],
  m4: [
    { answer: 'no', claims: [{ id: 'c1', text: 'The migration is risky.' }], evidence: ['e4'] },
    { answer: 'yes', claims: [{ id: 'c1', text: 'Rollback covers it.' }], references: [{ agent: 'Agent 1', claim: 'R1-A1-c1', stance: 'concede' }], evidence: ['e5'] },
    { answer: 'yes' },
  ],
};

export const agentsOn = (baseUrl: string, models: string[]) => models.map((model) => ({ model: `openai-compatible:${baseUrl}#${model}` }));
