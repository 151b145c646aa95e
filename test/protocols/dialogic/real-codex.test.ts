import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDialogicToFile } from '../../../protocols/dialogic/index.js';
import { createBackend } from '../../../wrapper/model-spec.js';
import { makeCodexHome, type CodexHome } from '../../doubles/codex-home.js';
import { startScriptedResponses, type ScriptedResponsesServer } from '../../doubles/scripted-responses.js';
import { classify, scriptedAnswers, startWorld, type Seen, type World, type WorldScript } from './world.js';

const CODEX_BIN = resolve('node_modules/.bin/codex');

const GENERATIONS: WorldScript['generations'] = {
  'model-a': [{ terms: ['K north', 'RA east', 'D south', 'K west'] }],
  'model-b': [{ terms: ['K up', 'RC down', 'K left', 'K right'] }],
};

/** The prompt text of the last user message Codex sent. */
function lastUserText(body: { input?: { role?: string; content?: { type?: string; text?: string }[] }[] }): string {
  const user = (body.input ?? []).filter((item) => item.role === 'user').at(-1);
  return (user?.content ?? []).map((part) => part.text ?? '').join('\n');
}

let world: World | undefined;
let responses: ScriptedResponsesServer | undefined;
let home: CodexHome | undefined;
afterEach(async () => {
  await world?.chat.close();
  await responses?.close();
  await home?.cleanup();
});

describe('dialogic run with the real codex binary as model A', () => {
  it('negotiates between codex exec and an OpenAI-compatible model and emits the seed schema', { timeout: 180_000 }, async () => {
    world = await startWorld({ generations: GENERATIONS });
    const answer = scriptedAnswers({ generations: GENERATIONS });
    const codexSeen: Seen[] = [];
    responses = await startScriptedResponses(({ body, index }) => {
      const view = classify({ body, model: 'model-a', messages: [{ role: 'user', content: lastUserText(body) }], stream: true, index });
      codexSeen.push(view);
      const reply = answer(view);
      return 'content' in reply ? { text: reply.content } : { status: reply.status };
    });
    home = await makeCodexHome(responses.baseUrl);
    const codexHome = home;
    const outPath = join(await mkdtemp(join(tmpdir(), 'parley-dialogic-codex-')), 'run.json');
    const output = await runDialogicToFile(
      { modelA: 'codex:fake-model', modelB: world.specB, maxCycles: 1, retryBaseMs: 0 },
      {
        outPath,
        backendFor: (spec) =>
          spec.startsWith('codex') ? createBackend(spec, { binPath: CODEX_BIN, env: codexHome.env, cwd: codexHome.workDir, timeoutMs: 60_000 }) : createBackend(spec),
      },
    );
    expect(codexSeen.map((s) => `${s.kind}:${s.termName ?? ''}`)).toEqual([
      'generate:', 'reply:RA east', 'respond:K up', 'respond:RC down', 'counter:RC down~', 'respond:K left', 'respond:K right',
    ]);
    expect(responses.requests.every((r) => r.body.text?.format?.type === 'json_schema')).toBe(true);
    expect(output.run.model_a).toEqual({ name: 'fake-model', persona: 'husserlian' });
    expect(output.run.submitted_terms.map((t) => t.term)).toEqual(['K north', 'RA east+', 'K west', 'K up', 'RC down~', 'K left', 'K right']);
    expect(output.run.dropped_terms.map((t) => t.term)).toEqual(['D south']);
    expect(output.stopReason).toBe('max_cycles');
  });
});
