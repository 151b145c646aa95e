import { z } from 'zod';
import { decisionRecordMarkdown, SynthesizeInput } from '../../protocols/argumentation/index.js';
import { writeDecisionRecord } from '../../protocols/decisions/index.js';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import type { MoveOutcome } from '../deliberations.js';
import { closingBrief, MoveResultShape, DeliberationId, leanResult } from './delib-shared.js';

const DecisionRecordInput = z.object({ folder: z.string().optional(), supersedes: z.array(z.string()).optional() });

export const synthesizeTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_synthesize',
    description:
      "After termination: checks coverage and builds the report, led by your recommendation (the answer to the user's question). Returns the brief for your answer (what it turns on, what changed, what stays open) and where the full record is. decisionRecord: also write it as an ADR into the repository's decision folder, marking the records it supersedes.",
    input: { deliberationId: DeliberationId, ...SynthesizeInput.partial().shape, decisionRecord: DecisionRecordInput.optional() },
    output: { ...MoveResultShape },
    effect: 'write',
    async handler({ deliberationId, decisionRecord, ...input }) {
      const current = await deps.deliberations.get(deliberationId);
      // A synthesized deliberation asked only for its record: nothing for the engine to apply.
      const onlyTheRecord = decisionRecord && current.state.report && Object.values(input).every((value) => value === undefined);
      const moved: MoveOutcome = onlyTheRecord ? { ...current, effects: [] } : await deps.deliberations.apply(deliberationId, 'synthesize', input);
      if (!decisionRecord) return { ...leanResult(moved.state, moved.effects), brief: await closingBrief(deps, moved) };
      const written = await writeDecisionRecord(deps.cwd, { markdown: decisionRecordMarkdown(moved.state), deliberationId, ...decisionRecord });
      const effects = [
        ...moved.effects,
        ...(written.written ? [`decision record ${written.file} written`] : []),
        ...written.superseded.map((id) => `ADR-${id} marked superseded by ADR-${written.number}`),
        ...written.notes,
      ];
      // The brief was returned by the move that synthesized: asked only for the record, it is not repeated.
      const brief = onlyTheRecord ? {} : { brief: await closingBrief(deps, moved) };
      return { ...leanResult(moved.state, effects), ...brief, decisionRecord: { file: written.file, number: written.number, ...(written.superseded.length ? { superseded: written.superseded } : {}) } };
    },
  });
