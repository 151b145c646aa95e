import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/cli-capture.js';
import { registerDebateCommand } from '../../../cli/debate.js';
import { startScriptedChat } from '../../doubles/scripted-chat.js';
import { filesDigest } from '../folder-digest.js';
import { FOUR_AGENT_DEBATE, debaterScript } from './scripts.js';

const work = await mkdtemp(join(tmpdir(), 'parley-debate-resume-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

const parley = (args: string[]) => runCli(registerDebateCommand, args);

describe('parley debate into a folder that holds a debate', () => {
  it('replays the same configuration, and refuses any other before calling a model, leaving every file as it was', async () => {
    const server = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    const out = join(work, 'debate.json');
    const agent = (model: string) => `openai-compatible:${server.baseUrl}#${model}`;
    const agents = (models: string[]) => models.flatMap((model) => ['--agent', agent(model)]);
    const first = ['debate', 'Ship the release today?', ...agents(['m1', 'm2', 'm3', 'm4']), '--out', out];
    try {
      expect((await parley(first)).exitCode).toBe(0);
      expect(server.requests).toHaveLength(8);
      const recorded = JSON.parse(await readFile(join(work, 'debate.run', 'config.json'), 'utf8'));
      expect(recorded).toMatchObject({ kind: 'parley.run-config', protocol: 'debate', config: { question: 'Ship the release today?', rounds: 3 } });
      expect(recorded.hash).toMatch(/^[0-9a-f]{64}$/);
      const before = await filesDigest(work);

      const changes: [string[], RegExp][] = [
        [['debate', 'Ship it tomorrow?', ...agents(['m1', 'm2', 'm3', 'm4']), '--out', out], /question: "Ship the release today\?" -> "Ship it tomorrow\?"/],
        [['debate', 'Ship the release today?', ...agents(['m1', 'm2', 'm3', 'm1']), '--out', out], /agents\.3\.model: ".*#m4" -> ".*#m1"/],
        [[...first, '--role', 'skeptic'], /agents\.0\.role: \(none\) -> "skeptic"/],
        [[...first, '--rounds', '2'], /rounds: 3 -> 2/],
        [[...first, '--temperature', '0.2', '--options', 'yes,no'], /options: \(none\) -> \["yes","no"\]; temperature: \(none\) -> 0\.2/],
        [[...first, '--crit', agent('m1')], /crit: \(none\) -> \{"judge"/],
      ];
      for (const [args, named] of changes) {
        const refused = await parley(args);
        expect(refused.exitCode).toBe(1);
        expect(refused.stderr).toMatch(/debate\.run holds a debate run started with another configuration/);
        expect(refused.stderr).toMatch(named);
        expect(refused.stderr).toMatch(/nothing was called or changed\. To start a fresh run, give another --out, or remove that folder first/);
        expect(server.requests).toHaveLength(8);
        expect(await filesDigest(work)).toEqual(before);
      }

      const again = await parley(first);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/8 call\(s\) replayed from the audit log/);
      expect(server.requests).toHaveLength(8);

      // Another --out is another run folder: a fresh run.
      const fresh = await parley(['debate', 'Ship it tomorrow?', ...agents(['m1', 'm2', 'm3', 'm4']), '--out', join(work, 'tomorrow.json')]);
      expect(fresh.exitCode, fresh.stderr).toBe(0);
      expect(server.requests).toHaveLength(16);
    } finally {
      await server.close();
    }
  });
});
