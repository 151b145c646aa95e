import type { DebateConfig, DebateTranscript } from '../../schemas/debate.js';
import type { RunProtocol } from '../run-protocol.js';
import { analyzeDebate } from './analyze.js';
import { CHECKED_DEBATE_CONFIG, debateModelSpecs, runDebate } from './run.js';

export const debateProtocol: RunProtocol<DebateConfig, DebateTranscript> = {
  name: 'debate',
  configSchema: CHECKED_DEBATE_CONFIG,
  modelSpecs: debateModelSpecs,
  run: (config, ctx) => runDebate(config, ctx),
  analyze: (output) => analyzeDebate(output),
};

export { runDebate, parseDebateConfig, type DebateRunHooks } from './run.js';
export { runDebateToFile, type RunDebateToFileOptions } from './run-to-file.js';
export { analyzeDebate, exportGraph, measuresToCsv, identityBias, type DebateAnalysis, type DebateMeasures, type DebateSummary } from './analyze.js';
export { buildGraph, type DebateGraph, type GraphEdge, type GraphNode } from './graph.js';
export { pidStep, pidStabilityCheck, toneFor, quadrantOf } from './pid.js';
export { generalizedJs, entropy, jaccard, meanPairwiseJaccard } from './math.js';
