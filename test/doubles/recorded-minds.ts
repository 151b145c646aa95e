/**
 * Real minds on file. scripts/real-minds/relay-chat.ts leaves one folder per model with
 * NNN.prompt.md and NNN.reply.md; a trial keeps those folders beside the run's `config.json` and
 * output (`output.json`). startRecordedMinds replays a trial: a scripted chat server that answers
 * model M's k-th request with the k-th reply written in M's folder. answerRelayPrompts is the
 * opposite side for rehearsals: a scripted mind that answers a live relay's prompt files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startScriptedChat, type ChatReply, type ScriptedChat } from './scripted-chat.js';

const numbered = (folder: string, suffix: string): string[] =>
  readdirSync(folder)
    .filter((name) => new RegExp(`^\\d+\\.${suffix.replace('.', '\\.')}$`).test(name))
    .sort();

/** The model folders of a trial: every sub-folder holding prompt files. */
export function trialModels(trial: string): string[] {
  return readdirSync(trial, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && numbered(join(trial, entry.name), 'prompt.md').length > 0)
    .map((entry) => entry.name)
    .sort();
}

/** A model's replies in the order it wrote them (a request it never answered has none). */
export function trialReplies(trial: string, model: string): string[] {
  const folder = join(trial, model);
  return numbered(folder, 'reply.md').map((name) => readFileSync(join(folder, name), 'utf8').trim());
}

export interface RecordedMinds {
  chat: ScriptedChat;
  /** Rewrites a spec's URL to this server, keeping its `#model`. */
  spec(original: string): string;
  /** Requests past the end of a model's replies, as `model #k`. */
  unanswered: string[];
  /** Replies no request asked for, as `model: n left`. */
  leftOver(): string[];
}

export async function startRecordedMinds(trial: string): Promise<RecordedMinds> {
  const replies = new Map(trialModels(trial).map((model) => [model, trialReplies(trial, model)]));
  const served = new Map<string, number>();
  const unanswered: string[] = [];
  const chat = await startScriptedChat((req): ChatReply => {
    const index = served.get(req.model) ?? 0;
    served.set(req.model, index + 1);
    const reply = replies.get(req.model)?.[index];
    if (reply !== undefined) return { content: reply };
    unanswered.push(`${req.model} #${index + 1}`);
    return { status: 400, body: { error: { message: `no recorded reply for ${req.model} #${index + 1}` } } };
  });
  return {
    chat,
    spec: (original) => `openai-compatible:${chat.baseUrl}#${original.slice(original.lastIndexOf('#') + 1)}`,
    unanswered,
    leftOver: () => [...replies].flatMap(([model, list]) => (list.length > (served.get(model) ?? 0) ? [`${model}: ${list.length - (served.get(model) ?? 0)} left`] : [])),
  };
}

/** A prompt file split back into what the relay wrote: the system message and the last user message. */
export function readPromptFile(text: string): { system: string; user: string } {
  const user = /^# User[^\n]*\n\n([\s\S]*)$/m.exec(text);
  const system = /^# System\n\n([\s\S]*?)\n\n# User/m.exec(text);
  return { system: system?.[1] ?? '', user: (user?.[1] ?? '').replace(/\n$/, '') };
}

/**
 * A scripted mind for every model folder of a live relay: answers each unanswered NNN.prompt.md
 * (and debrief.prompt.md, scripts/real-minds/run-chat.ts's last question) with `answer(model, prompt)`, writing to a temporary name and renaming into place, until stopped.
 */
export function answerRelayPrompts(dir: string, answer: (model: string, prompt: { system: string; user: string }) => string): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const model of existsSync(dir) ? trialModels(dir) : []) {
        const folder = join(dir, model);
        const debrief = existsSync(join(folder, 'debrief.prompt.md')) ? ['debrief.prompt.md'] : [];
        for (const name of [...numbered(folder, 'prompt.md'), ...debrief]) {
          const n = name.slice(0, -'.prompt.md'.length);
          if (existsSync(join(folder, `${n}.reply.md`)) || existsSync(join(folder, `${n}.abandoned.md`))) continue;
          const reply = answer(model, readPromptFile(readFileSync(join(folder, name), 'utf8')));
          await writeFile(join(folder, `${n}.reply.tmp`), reply);
          await rename(join(folder, `${n}.reply.tmp`), join(folder, `${n}.reply.md`));
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
