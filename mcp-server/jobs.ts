import type { RunProgress } from '../protocols/run-protocol.js';

export type JobStatus = 'running' | 'succeeded' | 'failed' | 'canceled';

export interface JobView {
  id: string;
  kind: string;
  status: JobStatus;
  progress: RunProgress;
  startedAt: string;
  finishedAt?: string;
  error?: string;
}

interface Job<T = unknown> extends JobView {
  controller: AbortController;
  delivered: boolean;
  promise: Promise<T>;
  result?: T;
  failure?: unknown;
  listeners: Set<(progress: RunProgress) => void>;
}

export interface JobWork<T> {
  (signal: AbortSignal, progress: (update: RunProgress) => void): Promise<T>;
}

/**
 * Long work (a consult, a dialogic run, a debate) runs here so that no tool call blocks past a
 * client timeout: start returns at once, status/wait/cancel poll or stop it.
 */
export class JobManager {
  private readonly jobs = new Map<string, Job>();

  constructor(private readonly clock: () => Date = () => new Date()) {}

  start<T>(id: string, kind: string, work: JobWork<T>): JobView {
    const existing = this.jobs.get(id);
    if (existing?.status === 'running') throw new Error(`job ${id} is already running`);
    const controller = new AbortController();
    const job: Job<T> = {
      id,
      kind,
      status: 'running',
      progress: { done: 0, message: 'started' },
      startedAt: this.clock().toISOString(),
      controller,
      delivered: false,
      listeners: new Set(),
      promise: Promise.resolve() as Promise<T>,
    };
    const onProgress = (update: RunProgress): void => {
      job.progress = update;
      for (const listener of job.listeners) listener(update);
    };
    job.promise = work(controller.signal, onProgress).then(
      (result) => {
        job.result = result;
        job.status = controller.signal.aborted ? 'canceled' : 'succeeded';
        job.finishedAt = this.clock().toISOString();
        return result;
      },
      (error: unknown) => {
        job.status = controller.signal.aborted ? 'canceled' : 'failed';
        job.error = error instanceof Error ? error.message : String(error);
        job.failure = error;
        job.finishedAt = this.clock().toISOString();
        throw error;
      },
    );
    job.promise.catch(() => undefined);
    this.jobs.set(id, job as Job);
    return view(job);
  }

  get(id: string): JobView | undefined {
    const job = this.jobs.get(id);
    return job ? view(job) : undefined;
  }

  /**
   * A finished job's outcome, handed out once: for tools that start work, wait a while, and let the
   * caller come back for the answer. Undefined while it runs, when unknown, or once taken.
   */
  takeFinished<T>(id: string): { ok: true; result: T } | { ok: false; error: string; cause?: unknown } | undefined {
    const job = this.jobs.get(id);
    if (!job || job.status === 'running' || job.delivered) return undefined;
    job.delivered = true;
    // The error object itself travels on: a refusal keeps its rule and legal moves.
    return job.status === 'succeeded' ? { ok: true, result: job.result as T } : { ok: false, error: job.error ?? job.status, cause: job.failure };
  }

  /** Resolves when the job ends or after `ms`, whichever comes first; forwards progress meanwhile. */
  async wait(id: string, ms: number, onProgress?: (update: RunProgress) => void, signal?: AbortSignal): Promise<JobView | undefined> {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    if (job.status !== 'running') return view(job);
    if (onProgress) job.listeners.add(onProgress);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        job.promise.catch(() => undefined),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, ms);
          signal?.addEventListener('abort', () => resolve(), { once: true });
        }),
      ]);
    } finally {
      if (timer) clearTimeout(timer);
      if (onProgress) job.listeners.delete(onProgress);
    }
    return view(job);
  }

  cancel(id: string): JobView | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    if (job.status === 'running') job.controller.abort(new Error('canceled by the caller'));
    return view(job);
  }

  /** Aborts every running job and waits for them to settle (server shutdown). */
  async shutdown(): Promise<void> {
    const running = [...this.jobs.values()].filter((job) => job.status === 'running');
    for (const job of running) job.controller.abort(new Error('server shutting down'));
    await Promise.allSettled(running.map((job) => job.promise));
  }
}

function view(job: Job): JobView {
  const { id, kind, status, progress, startedAt, finishedAt, error } = job;
  return { id, kind, status, progress, startedAt, ...(finishedAt ? { finishedAt } : {}), ...(error ? { error } : {}) };
}
