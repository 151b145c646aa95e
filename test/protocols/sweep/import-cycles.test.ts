import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

/** Every relative import (`import` and `export ... from`, type-only ones too) between the .ts files of a folder. */
function importGraph(folder: string): Map<string, string[]> {
  const files = readdirSync(folder).filter((name) => name.endsWith('.ts')).map((name) => join(folder, name));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = [...readFileSync(file, 'utf8').matchAll(/(?:import|export)[^;]*?from\s+'(\.[^']+)\.js'/g)].map((match) => resolve(dirname(file), `${match[1]}.ts`));
    graph.set(file, targets.filter((target) => files.includes(target)));
  }
  return graph;
}

/** One cycle of the graph as a path that returns to its start, or undefined. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]): string[] | undefined => {
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    if (state.get(node) === 'done') return undefined;
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...path, node]);
      if (cycle) return cycle;
    }
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('protocols/sweep imports', () => {
  it('form no cycle (pairs, summarize and tables share their row types through run-rows.ts)', () => {
    const cycle = findCycle(importGraph(join(root, 'protocols/sweep')));
    expect(cycle?.map((file) => relative(root, file))).toBeUndefined();
  });

  it('the check finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
  });
});
