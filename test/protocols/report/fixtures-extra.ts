/** More runs for the report tests, made by the real engines: a tied debate with a failed CRIT round, and a real sweep. */
import { join } from 'node:path';
import { runDebateToFile } from '../../../protocols/debate/index.js';
import { runSweep, summarizeSweep, writeSummaryFiles } from '../../../protocols/sweep/index.js';
import { startScriptedChat, type ChatRequestRecord } from '../../doubles/scripted-chat.js';
import { agentsOn, debaterScript } from '../debate/scripts.js';
import { dialogicMatrix, startDialogicWorld } from '../sweep/worlds.js';

export const REASONING = 'The rollback plan was tested last week, so the risk is bounded.';

const say = (answer: string, confidence: number, reasoning: string) => ({ answer, confidence, reasoning, claims: [{ id: 'c1', text: `I hold ${answer}.` }] });

/**
 * Four agents: rounds 1 and 2 split 2-2 (a tie: no, yes), round 3 goes 3-1 to yes. The CRIT judge
 * answers rounds 1 and 3 and sends nothing readable for round 2, so CRIT rho has a hole in the middle.
 */
const TIED: Record<string, unknown[]> = {
  t1: [say('yes', 0.9, REASONING), say('yes', 0.9, 'Still yes.'), say('yes', 0.95, 'Yes.')],
  t2: [say('no', 0.6, 'Too risky today.'), say('no', 0.55, 'Still risky.'), say('yes', 0.5, 'The others convinced me.')],
  t3: [say('yes', 0.8, 'Users want it.'), say('yes', 0.8, 'Users still want it.'), say('yes', 0.8, 'Yes.')],
  t4: [say('no', 0.7, 'Docs missing.'), say('no', 0.7, 'Docs still missing.'), say('no', 0.7, 'Docs missing.')],
};

function critReply(req: ChatRequestRecord): string {
  if (req.messages.some((message) => message.content.includes('Round 2 responses:'))) return 'the judge has nothing to say';
  const pillars = { logicalValidity: 0.8, evidentialSupport: 0.7, alternativeConsideration: 0.6, causalAlignment: 0.9 };
  return JSON.stringify({ agents: ['Agent 1', 'Agent 2', 'Agent 3', 'Agent 4'].map((agent) => ({ agent, pillars })) });
}

export async function tiedDebateRun(dir: string): Promise<string> {
  const debaters = debaterScript(TIED);
  const server = await startScriptedChat((req) => (req.model === 'judge' ? { content: critReply(req) } : debaters(req)));
  try {
    const outPath = join(dir, 'tied.json');
    await runDebateToFile(
      {
        question: 'Ship today?',
        agents: agentsOn(server.baseUrl, ['t1', 't2', 't3', 't4']),
        rounds: 3,
        options: ['yes', 'no'],
        stop: { onConvergence: false, onUnanimity: false },
        crit: { judge: `openai-compatible:${server.baseUrl}#judge`, variant: 'pillars' },
      },
      { outPath },
    );
    return outPath;
  } finally {
    await server.close();
  }
}

/** The dialogic sweep of test/protocols/sweep (pairing x anonymise, 2 repetitions), summarized: its folder. */
export async function sweepRun(dir: string): Promise<string> {
  const chat = await startDialogicWorld();
  try {
    const out = join(dir, 'sweep');
    const report = await runSweep(dialogicMatrix(chat), { outDir: out, concurrency: 4 });
    if (report.failed.length) throw new Error(`sweep runs failed: ${report.failed.join(', ')}`);
    await writeSummaryFiles(out, await summarizeSweep(out));
    return out;
  } finally {
    await chat.close();
  }
}
