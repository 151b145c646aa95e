import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDialogicToFile } from '../../../protocols/dialogic/index.js';
import { createBackend } from '../../../wrapper/model-spec.js';
import { claudeBin, createClaudeHome, type ClaudeHome } from '../../doubles/claude-home.js';
import { isTitleRequest, startScriptedAnthropic, type ScriptedAnthropic } from '../../doubles/scripted-anthropic.js';
import { classify, scriptedAnswers, startWorld, type Seen, type World, type WorldScript } from './world.js';

const GENERATIONS: WorldScript['generations'] = {
  'model-a': [{ terms: ['K north', 'RA east', 'D south', 'K west'] }],
  'model-b': [{ terms: ['K up', 'RC down', 'K left', 'K right'] }],
};

let world: World | undefined;
let anthropic: ScriptedAnthropic | undefined;
let home: ClaudeHome | undefined;
afterEach(async () => {
  await world?.chat.close();
  await anthropic?.close();
  await home?.remove();
});

describe('dialogic run with the real claude -p as model B', () => {
  it('negotiates between an OpenAI-compatible model and claude -p, answering through its StructuredOutput tool', { timeout: 240_000 }, async () => {
    world = await startWorld({ generations: GENERATIONS });
    const answer = scriptedAnswers({ generations: GENERATIONS });
    const claudeSeen: Seen[] = [];
    anthropic = await startScriptedAnthropic((req) => {
      if (isTitleRequest(req)) return { text: 'Dialogic run' };
      const offersSchema = (req.body.tools ?? []).some((tool: { name: string }) => tool.name === 'StructuredOutput');
      let view: Seen;
      try {
        view = classify({ body: req.body, model: 'model-b', messages: [{ role: 'system', content: req.system }, { role: 'user', content: req.lastUserText }], stream: req.stream, index: req.index });
      } catch {
        return { text: 'done' };
      }
      claudeSeen.push(view);
      const reply = answer(view);
      if (!('content' in reply)) return { status: reply.status };
      return offersSchema ? { toolUse: { name: 'StructuredOutput', input: JSON.parse(reply.content) } } : { text: reply.content };
    });
    home = await createClaudeHome(anthropic.baseUrl);
    const claudeHome = home;
    const outPath = join(await mkdtemp(join(tmpdir(), 'parley-dialogic-claude-')), 'run.json');
    const output = await runDialogicToFile(
      { modelA: world.specA, modelB: 'claude:claude-sonnet-4-5', maxCycles: 1, retryBaseMs: 0 },
      {
        outPath,
        backendFor: (spec) =>
          spec.startsWith('claude') ? createBackend(spec, { binPath: claudeBin, env: claudeHome.env, cwd: claudeHome.cwd, timeoutMs: 90_000 }) : createBackend(spec),
      },
    );
    expect(claudeSeen.map((s) => `${s.kind}:${s.termName ?? ''}`)).toEqual([
      'generate:', 'respond:K north', 'respond:RA east', 'respond:D south', 'respond:K west', 'reply:RC down',
    ]);
    expect(claudeSeen.every((s) => s.system.includes('Heideggerian orientation') || s.prompt.includes('Heideggerian orientation'))).toBe(true);
    expect(output.run.model_b).toEqual({ name: 'claude-sonnet-4-5', persona: 'heideggerian' });
    expect(output.run.submitted_terms.map((t) => t.term)).toEqual(['K north', 'RA east+', 'K west', 'K up', 'RC down~', 'K left', 'K right']);
    expect(output.run.dropped_terms.map((t) => t.term)).toEqual(['D south']);
  });
});
