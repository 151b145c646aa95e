/**
 * Dialogic runs whose two models were real minds (scripts/real-minds: relay-chat.ts, run-chat.ts):
 * each trial kept in real-minds/ is replayed from the minds' own replies and must give the same run.
 * The rehearsal runs the same scripts with scripted minds, so the rig and the replay are tested even
 * before a trial exists.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDialogicToFile } from '../../../protocols/dialogic/index.js';
import { DialogicRun } from '../../../schemas/dialogic.js';
import { answerRelayPrompts, startRecordedMinds } from '../../doubles/recorded-minds.js';
import { runChat, startRelayChat, TRIAL_CONFIGS } from '../../scripts/relay-chat-process.js';
import { scriptedAnswers, classify } from './world.js';

const ROOT = join(import.meta.dirname, 'real-minds');
const trials = existsSync(ROOT) ? readdirSync(ROOT) : [];
const work = await mkdtemp(join(tmpdir(), 'parley-dialogic-minds-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

/** A run as the seed's JSON says it, without the date it was made on. */
const runOf = (run: DialogicRun) => JSON.parse(JSON.stringify(run, (key, value) => (key === 'contributed_date' ? undefined : value)));

async function replay(trial: string, name: string): Promise<{ run: DialogicRun; unanswered: string[]; leftOver: string[] }> {
  const minds = await startRecordedMinds(trial);
  try {
    const text = readFileSync(join(trial, 'config.json'), 'utf8').replace(/"relay:([^"]+)"/g, (_, model: string) => JSON.stringify(minds.spec(`#${model}`)));
    const output = await runDialogicToFile({ retryBaseMs: 0, ...JSON.parse(text) }, { outPath: join(work, `${name}.json`) });
    return { run: output.run, unanswered: minds.unanswered, leftOver: minds.leftOver() };
  } finally {
    await minds.chat.close();
  }
}

/** The scripted pair of test/protocols/dialogic/world.ts, reading the relay's prompt files. */
const answer = scriptedAnswers({
  generations: {
    'model-a': [{ terms: ['K a one', 'RA a two', 'D a three', 'K a four'] }, { terms: ['K a five'] }],
    'model-b': [{ terms: ['K b one', 'RC b two', 'K b three', 'D b four'] }, { exhausted: true, statement: 'Beyond my reach: what precedes the first token.' }],
  },
});
function scriptedMind(model: string, prompt: { system: string; user: string }): string {
  if (prompt.user.startsWith('The session is over')) return 'The counter-revision step was clear.';
  const messages = [{ role: 'system', content: prompt.system }, { role: 'user', content: prompt.user }];
  const reply = answer(classify({ body: {}, model, messages, stream: false, index: 0 }));
  if (!('content' in reply)) throw new Error(`no scripted reply for ${model}`);
  return reply.content;
}

describe('the real-minds rig for dialogic runs', () => {
  it('runs scripts/real-minds/dialogic.json through relay-chat and run-chat, and the trial it leaves replays to the same run', { timeout: 120_000 }, async () => {
    const trial = join(work, 'rehearsal');
    const relay = await startRelayChat(trial);
    const minds = answerRelayPrompts(trial, scriptedMind);
    let printed: string;
    try {
      printed = await runChat(trial, 'dialogic', TRIAL_CONFIGS.dialogic);
    } finally {
      await minds.stop();
      await relay.stop();
    }
    // 2 generations, 8 + 1 terms negotiated (RA 2 calls, RC 3), 2 regenerations: 16 calls.
    expect(printed).toContain('dialogic: 2 cycle(s), stopped by max_cycles; 16 calls; 7 agreed, 2 dropped');
    expect(printed).toContain('model-b: "The counter-revision step was clear."');
    const live = DialogicRun.parse(JSON.parse(readFileSync(join(trial, 'output.json'), 'utf8')));
    const replayed = await replay(trial, 'rehearsal-replay');
    expect(replayed.unanswered).toEqual([]);
    expect(replayed.leftOver).toEqual([]);
    expect(runOf(replayed.run)).toEqual(runOf(live));
  });
});

describe.each(trials)('real minds, dialogic trial %s', (name) => {
  it('replays from the minds\' replies to the run they had', async () => {
    const trial = join(ROOT, name);
    const recorded = DialogicRun.parse(JSON.parse(readFileSync(join(trial, 'output.json'), 'utf8')));
    const replayed = await replay(trial, name);
    expect(replayed.unanswered).toEqual([]);
    expect(replayed.leftOver).toEqual([]);
    expect(runOf(replayed.run)).toEqual(runOf(recorded));
  });
});
