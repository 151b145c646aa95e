import { defineTool } from '../tool-kit.js';

/** Registered only under PARLEY_BENCH_NOOP=1: the baseline the benchmarks measure tools against. */
export const benchNoopTool = () =>
  defineTool({
    name: 'bench_noop',
    description: 'Does nothing (benchmark baseline).',
    input: {},
    output: {},
    effect: 'read',
    handler: () => ({}),
  });
