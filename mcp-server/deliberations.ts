import { randomBytes } from 'node:crypto';
import { DeliberationState } from '../schemas/argumentation.js';
import { applyMove, moves, nextLegalMoves, startDeliberation, type ItemRefusal, type MoveResult, type StartInput } from '../protocols/argumentation/index.js';
import { createDocumentStore, deliberationStoreLocation, reportPathFor, type DocumentStore, type StoreLayout } from '../state/document-store.js';
import { existingFile, writeReportFile } from './report-file.js';
import { ToolRefusal } from './tool-kit.js';
import { keptInput } from './audit-input.js';

/** The schemaVersion of deliberation state files this parley writes (and the newest it reads). */
export const DELIBERATION_SCHEMA_VERSION = 1;

export interface MoveOutcome {
  state: DeliberationState;
  effects: string[];
  revision: number | null;
  /** Items of a batch the engine refused (the rest applied). */
  refused?: ItemRefusal[];
  /** A synthesized deliberation's report file, rewritten by this move (or why it could not be). */
  reportFile?: { path: string } | { error: string };
}

/**
 * Deliberations by handle. Standard and minimal ones live in the durable store (one JSON file and
 * one audit log each); quick ones live only in this process's memory, as the protocol requires.
 */
export class Deliberations {
  readonly store: DocumentStore<DeliberationState>;
  private readonly quick = new Map<string, DeliberationState>();
  private readonly reportPath: (id: string) => string;

  constructor(options: { env: NodeJS.ProcessEnv; home: string; dir?: string; layout?: StoreLayout; clock: () => Date }) {
    const location = deliberationStoreLocation({ env: options.env, dir: options.dir ?? (options.layout ? undefined : `${options.home}/deliberations`), layout: options.layout });
    this.store = createDocumentStore({
      dir: location.dir,
      filePrefix: location.filePrefix,
      privateDirs: [options.home, ...location.privateDirs],
      schema: DeliberationState,
      currentVersion: DELIBERATION_SCHEMA_VERSION,
      now: options.clock,
      summarize: (state) => ({ question: state.question.slice(0, 120), mode: state.mode, n: state.n, phase: state.phase, status: state.status }),
    });
    this.clock = options.clock;
    this.reportPath = (id) => reportPathFor(location.dir, id, location.filePrefix);
  }

  /** The report file of a stored deliberation, when there is one (quick ones keep nothing on disk). */
  async reportFile(id: string): Promise<string | undefined> {
    return this.quick.has(id) ? undefined : existingFile(this.reportPath(id));
  }

  private readonly clock: () => Date;

  async start(input: StartInput, requestedId?: string): Promise<MoveOutcome> {
    const id = requestedId ?? newDeliberationId(this.clock());
    const result = startDeliberation(input, { id, now: this.clock().toISOString() });
    const accepted = unwrap(result);
    if (accepted.state.mode === 'quick') {
      this.quick.set(id, accepted.state);
      return { ...accepted, revision: null };
    }
    const stored = await this.store.create(id, accepted.state, { audit: { type: 'move', move: 'delib_start', input, effects: accepted.effects } });
    return { ...accepted, revision: stored.revision };
  }

  async get(id: string): Promise<{ state: DeliberationState; revision: number | null }> {
    const quick = this.quick.get(id);
    if (quick) return { state: quick, revision: null };
    try {
      const stored = await this.store.read(id);
      return { state: stored.value, revision: stored.revision };
    } catch (error) {
      throw notFoundAsRefusal(id, error);
    }
  }

  /** Applies one engine move under the store's lock; a refusal writes nothing but is audited. */
  async apply(id: string, moveName: string, input: unknown): Promise<MoveOutcome> {
    if (!moves[moveName]) throw new Error(`unknown move ${moveName}`);
    const ctx = { now: this.clock().toISOString() };
    const quick = this.quick.get(id);
    if (quick) {
      const accepted = unwrap(applyMove(quick, moveName, input, ctx));
      this.quick.set(id, accepted.state);
      return { ...accepted, revision: null };
    }
    // Once synthesized, every change rewrites the report file, under the lock so that writes keep revision order.
    let reportFile: MoveOutcome['reportFile'];
    const afterCommit = async (state: DeliberationState) => {
      if (state.report) reportFile = await writeReportFile(this.store, this.reportPath(id), state);
    };
    // The audit line records the effects or the refusal, not the whole state.
    const outcome = await this.store
      .update<AuditedOutcome>(
        id,
        (current) => {
          const result = applyMove(current, moveName, input, ctx);
          return result.ok ? { value: result.state, result: { ok: true, effects: result.effects, ...(result.refused?.length ? { refused: result.refused } : {}) } } : { refuse: result };
        },
        { audit: { type: 'move', move: moveName, input }, auditUnchanged: { type: 'move', move: moveName, input: keptInput(input) }, afterCommit },
      )
      .catch((error: unknown) => {
        throw notFoundAsRefusal(id, error);
      });
    if (!outcome.result.ok) unwrap(outcome.result);
    const result = outcome.result.ok ? outcome.result : undefined;
    const effects = [...(result?.effects ?? []), ...(reportFile && 'error' in reportFile ? [reportFile.error] : [])];
    return { state: outcome.value, effects, revision: outcome.revision, ...(result?.refused ? { refused: result.refused } : {}), ...(reportFile ? { reportFile } : {}) };
  }

  /** Whether the engine would take this move on this state; nothing is applied or written. */
  accepts(state: DeliberationState, moveName: string, input: unknown): boolean {
    return applyMove(state, moveName, input, { now: this.clock().toISOString() }).ok;
  }

  async list(): Promise<{ id: string; summary?: unknown; updatedAt?: string; problem?: string }[]> {
    const stored = await this.store.list();
    const quick = [...this.quick.values()].map((state) => ({ id: state.id, updatedAt: state.updatedAt, summary: { question: state.question.slice(0, 120), mode: state.mode, n: state.n, status: state.status } }));
    return [...stored, ...quick];
  }
}

/** An engine pre-check's refusal (consultPrecheck, arbitrationPrecheck) as the tool's refusal; nothing when it passed. */
export function throwIfRefused(result: MoveResult | undefined): void {
  if (result && !result.ok) throw new ToolRefusal(result.refusal.message, result.refusal.rule, result.refusal.legalMoves);
}

/** A refusal the server itself raises (a job still running, a failed model call): the legal next moves are the engine's. */
export function serverRefusal(state: DeliberationState, message: string, rule: string): ToolRefusal {
  return new ToolRefusal(message, rule, nextLegalMoves(state).map((m) => m.move));
}

function notFoundAsRefusal(id: string, error: unknown): unknown {
  if ((error as { kind?: string }).kind !== 'not-found') return error;
  return new ToolRefusal(`no deliberation "${id}"; call delib_status without an id to list them, or delib_start to begin one`);
}

type AuditedOutcome = { ok: true; effects: string[]; refused?: ItemRefusal[] } | Extract<MoveResult, { ok: false }>;

function unwrap(result: MoveResult): { state: DeliberationState; effects: string[]; refused?: ItemRefusal[] } {
  if (!result.ok) throw new ToolRefusal(result.refusal.message, result.refusal.rule, result.refusal.legalMoves);
  return { state: result.state, effects: result.effects, ...(result.refused?.length ? { refused: result.refused } : {}) };
}

function newDeliberationId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `d-${stamp}-${randomBytes(3).toString('hex')}`;
}
