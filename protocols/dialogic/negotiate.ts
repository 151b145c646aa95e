import type { NegotiationEntry, TermText } from '../../schemas/dialogic.js';
import type { CallRequest, Participant } from './calls.js';
import { counterRevisionPrompt, proposerPrompt, responderPrompt, type Speaker } from './prompts.js';
import { ProposerReply, VerdictReply } from './replies.js';
import { capDropReason, type NegotiatedTerm, type ProposedTerm } from './terms.js';

export type Ask = <T>(request: CallRequest<T>) => Promise<T>;
export type Note = (key: string, type: string, data: Record<string, unknown>) => Promise<void>;

export interface NegotiationInput {
  term: ProposedTerm;
  /** The dictionary agreed so far, against which redundancy is judged. */
  agreed: readonly TermText[];
  proposer: Participant;
  responder: Participant;
  /** How the responder may see the proposer, and the proposer the responder. */
  proposerAsSeen: Speaker;
  responderAsSeen: Speaker;
  maxExchanges: number;
  keyPrefix: string;
  ask: Ask;
  note: Note;
}

/**
 * Negotiates one term to a conclusion. An exchange is one verdict from the responder and, on
 * REFINE, one answer from the proposer (accept, counter-revise, concede). `proposed_revision` is
 * the revised definition text, as the seed asks; the whole revised term is in the audit log's
 * verdict record. When the last allowed exchange ends in a counter-revision, that exchange's
 * outcome is the drop, with the cap as its reason: the cap adds no exchange of its own.
 */
export async function negotiateTerm(input: NegotiationInput): Promise<NegotiatedTerm> {
  const { term, proposer, responder, maxExchanges, keyPrefix } = input;
  const history: NegotiationEntry[] = [];
  const entry = (fields: Omit<NegotiationEntry, 'cycle' | 'presented_by' | 'response_by'>): NegotiationEntry => ({
    cycle: term.cycle,
    presented_by: proposer.slot,
    response_by: responder.slot,
    ...fields,
  });
  let current = term.text;
  let lastRevision: TermText | undefined;
  let counterReason = '';

  for (let exchange = 1; exchange <= maxExchanges; exchange += 1) {
    const respondKey = `${keyPrefix}/x${exchange}/respond`;
    const prompt =
      exchange === 1 || !lastRevision
        ? responderPrompt({ proposer: input.proposerAsSeen, term: current, agreed: input.agreed })
        : counterRevisionPrompt({
            proposer: input.proposerAsSeen,
            yourRevision: lastRevision,
            counter: current,
            counterReason,
            agreed: input.agreed,
            exchange,
            maxExchanges,
          });
    const verdict = await input.ask({ key: respondKey, who: responder, prompt, schema: VerdictReply, schemaName: 'dialogic_verdict' });
    await input.note(`ev/${respondKey}`, 'verdict', { term_id: term.id, exchange, by: responder.slot, ...verdict });

    if (verdict.verdict === 'KEEP') {
      history.push(entry({ action: 'KEEP', reason: verdict.reason, outcome: 'accepted' }));
      return { proposed: term, status: exchange === 1 ? 'KEEP' : 'REFINED', final: current, history };
    }
    if (verdict.verdict === 'DROP' || !verdict.revision) {
      history.push(entry({ action: 'DROP', reason: verdict.reason, outcome: 'dropped' }));
      return { proposed: term, status: 'DROPPED', final: current, history, dropKind: 'verdict' };
    }

    const revision = verdict.revision;
    const replyKey = `${keyPrefix}/x${exchange}/reply`;
    const reply = await input.ask({
      key: replyKey,
      who: proposer,
      prompt: proposerPrompt({ responder: input.responderAsSeen, current, revision, reason: verdict.reason, exchange, maxExchanges }),
      schema: ProposerReply,
      schemaName: 'dialogic_proposer_reply',
    });
    await input.note(`ev/${replyKey}`, 'proposer_reply', { term_id: term.id, exchange, by: proposer.slot, ...reply });
    const refine = { action: 'REFINE' as const, proposed_revision: revision.definition, reason: verdict.reason };

    if (reply.decision === 'accept') {
      history.push(entry({ ...refine, outcome: 'accepted' }));
      return { proposed: term, status: 'REFINED', final: revision, history };
    }
    if (reply.decision === 'concede' || !reply.counter_revision) {
      history.push(entry({ ...refine, outcome: 'dropped' }));
      return { proposed: term, status: 'DROPPED', final: current, history, dropKind: 'concession' };
    }
    if (exchange === maxExchanges) {
      history.push(entry({ ...refine, reason: capDropReason(maxExchanges, verdict.reason), outcome: 'dropped' }));
      return { proposed: term, status: 'DROPPED', final: current, history, dropKind: 'cap' };
    }
    history.push(entry({ ...refine, outcome: 'counter_revised' }));
    lastRevision = revision;
    current = reply.counter_revision;
    counterReason = reply.reason;
  }
  throw new Error(`negotiation of ${term.id} ended without an outcome`);
}
