import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { listRegisteredTools } from '../../mcp-server/tool-reference.js';
import { FRAMINGS } from '../../protocols/argumentation/index.js';
import { mentionedToolNames, readSkill, repoRoot, skillDocuments } from './skill-files.js';

// The keys Claude Code 2.1 accepts in SKILL.md frontmatter (research/claude-code.md).
const FRONTMATTER_KEYS = new Set(['name', 'description', 'when_to_use', 'model', 'effort', 'allowed-tools', 'disallowed-tools', 'argument-hint', 'disable-model-invocation', 'user-invocable', 'context', 'agent', 'paths', 'hooks', 'shell']);

let registered: Set<string>;
beforeAll(async () => {
  registered = new Set((await listRegisteredTools()).map((tool) => tool.name));
});

describe('SKILL.md', () => {
  it('is well under 500 lines', async () => {
    const { text } = await readSkill();
    expect(text.split('\n').length).toBeLessThan(500);
  });

  it('has frontmatter Claude Code accepts: known keys, a kebab-case name, a description', async () => {
    const { frontmatter } = await readSkill();
    expect(Object.keys(frontmatter).filter((key) => !FRONTMATTER_KEYS.has(key))).toEqual([]);
    expect(frontmatter.name).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(typeof frontmatter.description).toBe('string');
    expect((frontmatter.description as string).length).toBeGreaterThan(80);
    expect((frontmatter.description as string).length).toBeLessThan(1024);
  });

  it('pre-approves exactly the tools parley registers, in the plugin form Claude Code shows', async () => {
    const { frontmatter } = await readSkill();
    const allowed = frontmatter['allowed-tools'];
    expect(Array.isArray(allowed)).toBe(true);
    const names = (allowed as string[]).map((entry) => {
      expect(entry).toMatch(/^mcp__plugin_parley_parley__[a-z_]+$/);
      return entry.replace('mcp__plugin_parley_parley__', '');
    });
    expect(new Set(names)).toEqual(registered);
  });

  it('names every framing the server accepts, and only those', async () => {
    const { body } = await readSkill();
    const table = [...body.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]).filter((name) => !['quick', 'minimal', 'standard'].includes(name ?? ''));
    expect(new Set(table)).toEqual(new Set(Object.keys(FRAMINGS)));
  });

  it('points only at reference files that exist', async () => {
    for (const [file, text] of await skillDocuments()) {
      for (const match of text.matchAll(/`(skill\/[\w./-]+\.md)`/g)) {
        expect(existsSync(path.join(repoRoot, match[1] ?? '')), `${file} refers to ${match[1]}`).toBe(true);
      }
    }
  });
});

describe('tool names in SKILL.md and skill/', () => {
  it('every tool a document mentions is registered by the server', async () => {
    const unknown: string[] = [];
    let mentioned = 0;
    for (const [file, text] of await skillDocuments()) {
      for (const name of mentionedToolNames(text)) {
        mentioned++;
        if (!registered.has(name)) unknown.push(`${file}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(mentioned).toBeGreaterThan(20);
  });

  it('the name check catches a wrong name', () => {
    expect([...mentionedToolNames('call `delib_begin` then mcp__plugin_parley_parley__run_go; `waitSeconds` is an argument')]).toEqual(['delib_begin', 'run_go']);
  });
});
