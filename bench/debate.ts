import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDebateToFile } from '../protocols/debate/index.js';
import type { DebateTranscript } from '../schemas/debate.js';
import { median } from './stats.js';
import { startScriptedChat, type ChatRequestRecord, type ScriptedChat } from '../test/doubles/scripted-chat.js';

const LATENCY_MS = 50;

/** Debaters that never agree (odd models say yes, even say no) and engage their neighbour each round. */
function stubbornDebater(req: ChatRequestRecord) {
  const index = Number(req.model.replace(/\D/g, '')) || 1;
  const round = req.messages.filter((message) => message.role === 'user').length;
  return {
    content: JSON.stringify({
      answer: index % 2 ? 'yes' : 'no',
      claims: [{ id: 'c1', text: `Point ${round} from agent ${index}: the evidence in e${index} decides it.` }],
      references: round > 1 ? [{ agent: `Agent ${index === 1 ? 2 : index - 1}`, claim: `R${round - 1}-A${index === 1 ? 2 : index - 1}-c1`, stance: 'rebut' }] : [],
      evidence: [`e${index}`],
    }),
    delayMs: LATENCY_MS,
  };
}

async function debate(server: ScriptedChat, dir: string, n: number, rounds: number): Promise<{ transcript: DebateTranscript; wallMs: number }> {
  const agents = Array.from({ length: n }, (_, i) => ({ model: `openai-compatible:${server.baseUrl}#m${i + 1}` }));
  const started = performance.now();
  const transcript = await runDebateToFile(
    { question: 'Bench question?', agents, rounds, concurrencyPerBackend: 16, stop: { onUnanimity: false, onConvergence: false } },
    { outPath: join(dir, `n${n}-r${rounds}-${Math.random().toString(36).slice(2)}.json`) },
  );
  return { transcript, wallMs: performance.now() - started };
}

const messagesChars = (req: ChatRequestRecord) => req.messages.reduce((sum, message) => sum + message.content.length, 0);

/** Share of a request's characters that repeat the previous request of the same agent verbatim. */
function prefixShare(requests: ChatRequestRecord[]): { meanShare: number; exactPrefixFraction: number } {
  const byModel = new Map<string, ChatRequestRecord[]>();
  for (const req of requests) byModel.set(req.model, [...(byModel.get(req.model) ?? []), req]);
  let shareSum = 0;
  let exact = 0;
  let pairs = 0;
  for (const list of byModel.values()) {
    for (let i = 1; i < list.length; i += 1) {
      const [before, after] = [list[i - 1]!, list[i]!];
      const isPrefix = before.messages.every((message, k) => after.messages[k]?.role === message.role && after.messages[k]?.content === message.content);
      shareSum += isPrefix ? messagesChars(before) / messagesChars(after) : 0;
      exact += isPrefix ? 1 : 0;
      pairs += 1;
    }
  }
  return { meanShare: pairs ? shareSum / pairs : 0, exactPrefixFraction: pairs ? exact / pairs : 0 };
}

/** Round wall time over call latency for N = 2..16, prompt prefix reuse, and prompt size against N and R. */
export async function benchDebate(): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-bench-debate-'));
  const server = await startScriptedChat(stubbornDebater);
  const results: Record<string, number> = {};
  try {
    await debate(server, dir, 2, 2); // warm-up: JIT, sockets
    for (const n of [2, 4, 8, 16]) {
      // A round's own cost, without the run's set-up: the difference between a 3-round and a 1-round
      // debate, halved; the median of five such pairs, against the median single-call latency.
      const rounds: number[] = [];
      const calls: number[] = [];
      for (let pair = 0; pair < 5; pair += 1) {
        const one = await debate(server, dir, n, 1);
        const three = await debate(server, dir, n, 3);
        rounds.push((three.wallMs - one.wallMs) / 2);
        calls.push(...three.transcript.rounds.flatMap((round) => round.turns.map((turn) => turn.latencyMs ?? 0)));
      }
      results[`debate.round_wall_ms.n${n}`] = median(rounds);
      results[`debate.single_call_latency_ms.n${n}`] = median(calls);
      results[`debate.round_over_call_latency.n${n} (target <= 1.1; sequential loops take ${n})`] = median(rounds) / median(calls);
    }
    server.requests.splice(0);
    await debate(server, dir, 4, 4);
    const share = prefixShare(server.requests);
    results['debate.prefix_share_ratio'] = share.meanShare;
    results['debate.prefix_exact_fraction'] = share.exactPrefixFraction;
    for (const [n, rounds] of [[2, 3], [4, 3], [8, 3], [4, 1], [4, 2], [4, 4]] as const) {
      server.requests.splice(0);
      const { transcript } = await debate(server, dir, n, rounds);
      // Prompt characters / 4 approximates input tokens; the scripted usage is fixed per call.
      results[`debate.prompt_tokens_est.n${n}.r${rounds}`] = Math.round(server.requests.reduce((sum, req) => sum + messagesChars(req), 0) / 4);
      results[`debate.reported_tokens.n${n}.r${rounds}`] = transcript.usage.inputTokens + transcript.usage.outputTokens;
      results[`debate.calls.n${n}.r${rounds}`] = server.requests.length;
    }
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  return results;
}
