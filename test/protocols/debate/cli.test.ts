import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/cli-capture.js';
import { registerDebateCommand } from '../../../cli/debate.js';
import { startScriptedChat } from '../../doubles/scripted-chat.js';
import { FOUR_AGENT_DEBATE, debaterScript } from './scripts.js';

const work = await mkdtemp(join(tmpdir(), 'parley-debate-cli-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

const parley = (args: string[]) => runCli(registerDebateCommand, args);

describe('parley debate CLI', () => {
  it('runs a debate to a file and analyzes it in every format', async () => {
    const server = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    const out = join(work, 'debate.json');
    try {
      const agents = ['m1', 'm2', 'm3', 'm4'].flatMap((model) => ['--agent', `openai-compatible:${server.baseUrl}#${model}`]);
      const roles = ['--role', 'release manager', '--role-visibility', 'judges'];
      const run = await parley(['debate', 'Should we ship the release today?', ...agents, ...roles, '--rounds', '3', '--out', out]);
      expect(run.stdout).toMatch(/2 round\(s\), stopped by unanimity/);
      // Not a TTY here: progress comes as plain lines on stderr.
      expect(run.stderr.split('\n').filter((line) => /^\[\d+\/12\] round/.test(line))).toHaveLength(8);
      const saved = JSON.parse(await readFile(out, 'utf8'));
      expect(saved.kind).toBe('parley.debate');
      // --role-visibility judges: agent 1 knows its role, the other agents do not.
      expect(saved.roleVisibility).toBe('judges');
      const systemOf = (model: string) => server.requests.find((req) => req.model === model)!.messages[0]!.content;
      expect(systemOf('m1')).toContain('Your role or stance: release manager');
      expect(systemOf('m2')).not.toContain('release manager');

      const json = JSON.parse((await parley(['debate', 'analyze', out])).stdout);
      expect(json.measures.summary.conformity).toBe(0.5);
      expect(json.graph.nodes).toHaveLength(12);
      expect((await parley(['debate', 'analyze', out, '--format', 'dot'])).stdout).toMatch(/^digraph debate \{/);
      expect((await parley(['debate', 'analyze', out, '--format', 'mermaid'])).stdout).toMatch(/^flowchart LR/);
      const csv = (await parley(['debate', 'analyze', out, '--format', 'csv', '--table', 'agents'])).stdout.trim().split('\n');
      expect(csv[0]).toBe('agentId,label,firstAnswer,finalAnswer,changes,inDegree,outDegree,conformity,obstinacy');
      expect(csv[1]).toBe('agent-1,Agent 1,yes,yes,0,3,2,0,1');
    } finally {
      await server.close();
    }
  });

  it('explains what is missing instead of starting', async () => {
    const { stderr, exitCode } = await parley(['debate', 'A question', '--agent', 'openai:gpt-4.1', '--out', join(work, 'x.json')]);
    expect(stderr).toMatch(/at least two debaters/);
    expect(exitCode).toBe(1);
  });
});
