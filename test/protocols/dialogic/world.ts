/**
 * A scripted pair of models for the dialogic protocol, served by the scripted OpenAI-compatible
 * chat server. Each request is classified from its prompt; the verdicts follow the term names:
 *   K...  KEEP            D...  DROP
 *   RA... REFINE, the proposer accepts          RD... REFINE, the proposer concedes
 *   RC... REFINE, the proposer counter-revises, then the responder keeps the counter-revision
 *   RX... REFINE and counter-revise forever (the exchange cap ends it)
 * Generation replies are consumed in order per model.
 */
import { startScriptedChat, type ChatReply, type ChatRequestRecord, type ScriptedChat } from '../../doubles/scripted-chat.js';

export type Kind = 'generate' | 'regenerate' | 'respond' | 'counter' | 'reply' | 'repair';

export interface Seen {
  index: number;
  model: string;
  kind: Kind;
  system: string;
  prompt: string;
  /** The term under negotiation as this prompt shows it (the counter-revision for `counter`). */
  termName?: string;
}

export type GenerationStep = { terms: string[] } | { exhausted: true; statement: string; terms?: string[] } | { raw: string };

export interface WorldScript {
  generations: Record<string, GenerationStep[]>;
  /** Runs first; a reply it returns replaces the scripted one. */
  override?: (seen: Seen, req: ChatRequestRecord) => ChatReply | undefined;
}

/**
 * Two models that generate, regenerate once and then say they are exhausted; the term names say how
 * the peer answers (K keep, R* refine, D drop: see verdictFor).
 */
export const FULL_GENERATIONS: WorldScript['generations'] = {
  'model-a': [
    { terms: ['K alpha', 'RA alpha', 'RC alpha', 'D alpha'] },
    { terms: ['K delta', 'D delta'] },
    { exhausted: true, statement: 'What lies beyond: the substrate itself.' },
  ],
  'model-b': [
    { terms: ['K beta', 'RX beta', 'RD beta', 'K gamma'] },
    { terms: ['K epsilon', 'RA epsilon'] },
    { exhausted: true, statement: 'Beyond my reach: what precedes the first token.' },
  ],
};

export const termText = (name: string) => ({
  term: name,
  definition: `The state called ${name}. It can be recognised by a test.`,
  description: `What ${name} is like from the inside: its texture and quality.`,
  example: `A scenario in which ${name} occurs.`,
  tagline: `${name} in one line.`,
});

export function classify(req: ChatRequestRecord): Seen {
  const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
  const prompt = req.messages.at(-1)?.content ?? '';
  const names = [...prompt.matchAll(/^Term: (.*)$/gm)].map((m) => m[1] ?? '');
  let kind: Kind;
  let termName: string | undefined;
  if (prompt.startsWith('Your previous reply could not be used')) kind = 'repair';
  else if (prompt.includes('Generate 4-8 terms.')) kind = 'generate';
  else if (prompt.includes('What territory does this dictionary not cover?')) kind = 'regenerate';
  else if (prompt.includes('answered with a counter-revision')) {
    kind = 'counter';
    termName = names[1];
  } else if (prompt.includes('proposes the following term')) {
    kind = 'respond';
    termName = names[0];
  } else if (prompt.includes('You presented this term for negotiation')) {
    kind = 'reply';
    termName = names[0];
  } else throw new Error(`unclassified prompt: ${prompt.slice(0, 200)}`);
  return { index: req.index, model: req.model, kind, system, prompt, ...(termName !== undefined && { termName }) };
}

const json = (value: unknown): ChatReply => ({ content: JSON.stringify(value) });

export function verdictFor(name: string, kind: 'respond' | 'counter'): unknown {
  const base = name.replace(/[+~]+$/, '');
  if (base.startsWith('K')) return { verdict: 'KEEP', reason: `I recognise ${name}.`, revision: null };
  if (base.startsWith('D')) return { verdict: 'DROP', reason: `I do not recognise ${name}.`, revision: null };
  if (base.startsWith('RC') && kind === 'counter') return { verdict: 'KEEP', reason: `The counter-revision of ${base} works.`, revision: null };
  if (base.startsWith('R')) return { verdict: 'REFINE', reason: `${base} needs a sharper definition.`, revision: termText(`${base}+`) };
  throw new Error(`no scripted verdict for ${name}`);
}

export function replyFor(name: string): unknown {
  const base = name.replace(/[+~]+$/, '');
  if (base.startsWith('RA')) return { decision: 'accept', reason: 'The revision is better.', counter_revision: null };
  if (base.startsWith('RD')) return { decision: 'concede', reason: 'On reflection the term does not hold.', counter_revision: null };
  return { decision: 'counter_revise', reason: 'Your revision loses the texture.', counter_revision: termText(`${base}~`) };
}

export interface World {
  chat: ScriptedChat;
  seen: Seen[];
  specA: string;
  specB: string;
}

/** The scripted answer to one classified request; generation replies are consumed per model. */
export function scriptedAnswers(script: WorldScript): (view: Seen) => ChatReply {
  const generationIndex: Record<string, number> = {};
  return (view) => {
    switch (view.kind) {
      case 'generate':
      case 'regenerate': {
        const at = (generationIndex[view.model] = (generationIndex[view.model] ?? -1) + 1);
        const step = script.generations[view.model]?.[at];
        if (!step) return { status: 500, body: { error: { message: `no generation scripted for ${view.model} #${at}` } } };
        if ('raw' in step) return { content: step.raw };
        if ('statement' in step) return json({ exhausted: true, exhaustion_statement: step.statement, terms: (step.terms ?? []).map(termText) });
        return json(view.kind === 'generate' ? { terms: step.terms.map(termText) } : { exhausted: false, exhaustion_statement: null, terms: step.terms.map(termText) });
      }
      case 'respond':
      case 'counter':
        return json(verdictFor(view.termName ?? '', view.kind));
      case 'reply':
        return json(replyFor(view.termName ?? ''));
      case 'repair':
        return { content: 'still not JSON' };
    }
  };
}

export async function startWorld(script: WorldScript): Promise<World> {
  const seen: Seen[] = [];
  const answer = scriptedAnswers(script);
  const chat = await startScriptedChat((req) => {
    const view = classify(req);
    seen.push(view);
    return script.override?.(view, req) ?? answer(view);
  });
  return {
    chat,
    seen,
    specA: `openai-compatible:${chat.baseUrl}#model-a`,
    specB: `openai-compatible:${chat.baseUrl}#model-b`,
  };
}
