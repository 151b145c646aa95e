import { JUDGES, type Arm } from './pairs.js';

/**
 * The minds' instruction texts live once, in scripts/ab/README.md, as fenced blocks tagged
 * `text instruction:<template>`; new-pair.ts fills in each pair's paths, question and brief.
 */
export const TEMPLATES = ['parley-orchestrator', 'plain-orchestrator', 'consultee', 'judge'] as const;
type Template = (typeof TEMPLATES)[number];

export function instructionTemplates(readme: string): Record<Template, string> {
  const found: Partial<Record<Template, string>> = {};
  for (const m of readme.matchAll(/^```text instruction:([a-z-]+)\n([\s\S]*?)^```$/gm)) {
    const name = m[1] as Template;
    if (!TEMPLATES.includes(name)) throw new Error(`scripts/ab/README.md has an instruction block for an unknown mind: ${name}`);
    found[name] = m[2]!;
  }
  const missing = TEMPLATES.filter((name) => found[name] === undefined);
  if (missing.length) throw new Error(`scripts/ab/README.md lacks the instruction block(s) for: ${missing.join(', ')}`);
  return found as Record<Template, string>;
}

export interface PairFacts {
  repo: string;
  pair: string;
  question: string;
  brief: string;
}

/** Each mind's instructions for one pair, by file name (parley-orchestrator.md, ..., judge-2.md). */
export function renderInstructions(readme: string, facts: PairFacts): Record<string, string> {
  const templates = instructionTemplates(readme);
  const fill = (template: string, values: Record<string, string>): string => {
    const text = template.replace(/\{\{([A-Z]+)\}\}/g, (whole, name: string) => values[name] ?? whole);
    const left = /\{\{[A-Z]+\}\}/.exec(text);
    if (left) throw new Error(`an instruction template in scripts/ab/README.md uses ${left[0]}, which new-pair.ts does not fill`);
    return text;
  };
  const common = { REPO: facts.repo, PAIR: facts.pair, QUESTION: facts.question.trim() };
  const consultee = (arm: Arm) => fill(templates.consultee, { ...common, ARM: arm, BRIEF: facts.brief.trim() });
  const judge = (n: 0 | 1) => fill(templates.judge, { ...common, PACKET: JUDGES[n].packet, VERDICT: JUDGES[n].verdict });
  return {
    'parley-orchestrator.md': fill(templates['parley-orchestrator'], common),
    'plain-orchestrator.md': fill(templates['plain-orchestrator'], common),
    'parley-consultee.md': consultee('parley'),
    'plain-consultee.md': consultee('plain'),
    'judge.md': judge(0),
    'judge-2.md': judge(1),
  };
}
