import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Backend } from '../wrapper/backend.js';
import type { RunAnalysis, RunProgress, RunProtocol } from '../protocols/run-protocol.js';
import { keepPrivate, makePrivateDir } from '../state/private-files.js';
import { readJsonFile } from '../state/json-text.js';
import { isMissingFile } from '../state/read-file.js';
import { assertSafeId, runDir, runsDir } from '../state/paths.js';
import type { JobManager } from './jobs.js';
import { refuseUnreadyModels, type ModelChecker } from './model-checks.js';
import { issuesText } from '../schemas/common.js';
import { ToolRefusal } from './tool-kit.js';
import { writeJsonFileAtomic } from '../state/atomic-write.js';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'canceled' | 'interrupted';

export interface RunMeta {
  runId: string;
  protocol: string;
  status: RunStatus;
  config: unknown;
  createdAt: string;
  updatedAt: string;
  progress: RunProgress;
  error?: string;
  files: { output: string; audit: string; meta: string };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry of heterogeneous protocols
export type AnyRunProtocol = RunProtocol<any, any>;
/** A protocol, or a loader for it: loaders keep the server's cold start free of protocol code. */
export type ProtocolEntry = AnyRunProtocol | (() => Promise<AnyRunProtocol>);

export interface RunManagerDeps {
  home: string;
  jobs: JobManager;
  protocols: Record<string, ProtocolEntry>;
  backendFor(spec: string): Backend;
  /** Checks the models a run will call before it is started. */
  checkModels: ModelChecker;
  clock?: () => Date;
}

/** Runs of the server-driven protocols: one folder per run (meta, output, audit log), resumable. */
export class RunManager {
  private readonly clock: () => Date;

  constructor(private readonly deps: RunManagerDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  protocolNames(): string[] {
    return Object.keys(this.deps.protocols);
  }

  async start(protocolName: string, rawConfig: unknown, requestedId?: string, onProgress?: (p: RunProgress) => void): Promise<RunMeta> {
    const protocol = await this.protocol(protocolName);
    let meta = requestedId ? await this.readMeta(requestedId).catch(() => undefined) : undefined;
    if (meta && (meta.status === 'succeeded' || this.deps.jobs.get(meta.runId)?.status === 'running')) {
      throw new ToolRefusal(`run ${meta.runId} is ${this.deps.jobs.get(meta.runId)?.status ?? meta.status}; call run_status or run_result instead`);
    }
    // Resuming without a config resumes the run as it was started; a config given is checked against it.
    const given = isEmptyConfig(rawConfig) && meta ? meta.config : rawConfig;
    const parsed = protocol.configSchema.safeParse(given);
    if (!parsed.success) {
      throw new ToolRefusal(`invalid ${protocolName} config: ${issuesText(parsed.error)}`);
    }
    const runId = requestedId ? assertSafeId(requestedId, 'runId') : newRunId(protocolName, this.clock());
    // A model that can only fail is named now: a run that cannot call it is never started.
    const roles = (protocol.modelSpecs?.(parsed.data) ?? []).map(({ path, spec }) => ({ label: path.join('.'), spec }));
    await refuseUnreadyModels(this.deps.checkModels, roles, `run ${runId}`);
    const dir = runDir(this.deps.home, runId);
    await makePrivateDir(dir);
    await keepPrivate(this.deps.home, runsDir(this.deps.home), dir);
    // Loaded here, not at the top: the server's cold start stays free of protocol code.
    const { lockRunFolder, runInFolder } = await import('../protocols/run-in-folder.js');
    // Taken before answering, so a run another process is running, or of another configuration, is refused, not failed.
    const claim = {
      config: { protocol: protocol.name, config: parsed.data as Record<string, unknown> },
      freshRun: `call run_start without runId; to resume run ${runId}, call run_start {runId} without config`,
    };
    const lock = await lockRunFolder(dir, claim);
    const now = this.clock().toISOString();
    meta = {
      runId,
      protocol: protocolName,
      status: 'running',
      config: parsed.data,
      createdAt: meta?.createdAt ?? now,
      updatedAt: now,
      progress: { done: 0, message: meta ? 'resuming' : 'starting' },
      files: runFiles(dir),
    };
    const started = meta;
    // Meta writes go through one chain so a late progress write never overwrites the final status.
    let writes: Promise<void> = Promise.resolve();
    const queueMeta = (next: RunMeta): Promise<void> => (writes = writes.then(() => this.writeMeta(next)).catch(() => undefined));
    const work = async (signal: AbortSignal, progress: (update: RunProgress) => void): Promise<unknown> => {
      let lastWrite = 0;
      const track = (update: RunProgress): void => {
        progress(update);
        onProgress?.(update);
        if (Date.now() - lastWrite > 250) {
          lastWrite = Date.now();
          void queueMeta({ ...started, progress: update, updatedAt: this.clock().toISOString() });
        }
      };
      const outcome = await runInFolder({
        dir,
        outPath: started.files.output,
        runId,
        run: (ctx) => protocol.run(parsed.data, ctx),
        backendFor: (spec) => this.deps.backendFor(spec),
        signal,
        onProgress: track,
        now: this.clock,
        claim,
        lock,
      });
      if (!outcome.ok) {
        const error = outcome.error;
        await queueMeta(this.finished(started, signal.aborted ? 'canceled' : 'failed', error instanceof Error ? error.message : String(error)));
        throw error;
      }
      await queueMeta(this.finished(started, signal.aborted ? 'canceled' : 'succeeded'));
      return outcome.result;
    };
    try {
      await this.writeMeta(started);
      this.deps.jobs.start(runId, protocolName, work);
    } catch (error) {
      await lock.release();
      throw error;
    }
    return started;
  }

  async status(runId: string): Promise<RunMeta> {
    const meta = await this.readMeta(runId);
    const job = this.deps.jobs.get(runId);
    if (job) return { ...meta, status: job.status, progress: job.progress, ...(job.error ? { error: job.error } : {}) };
    // On disk as running, but no job in this process: the process that ran it ended.
    return meta.status === 'running' ? { ...meta, status: 'interrupted' } : meta;
  }

  async wait(runId: string, ms: number, onProgress?: (p: RunProgress) => void, signal?: AbortSignal): Promise<RunMeta> {
    await this.deps.jobs.wait(runId, ms, onProgress, signal);
    return this.status(runId);
  }

  async output(runId: string): Promise<{ meta: RunMeta; output: unknown }> {
    const meta = await this.status(runId);
    if (meta.status !== 'succeeded') {
      throw new ToolRefusal(`run ${runId} is ${meta.status}${meta.error ? ` (${meta.error})` : ''}; ${meta.status === 'running' ? 'poll run_status' : 'start it again with run_start {runId} to resume'}`);
    }
    return { meta, output: await readJsonFile(meta.files.output, `the output of run ${runId}`) };
  }

  async cancel(runId: string): Promise<RunMeta> {
    await this.readMeta(runId);
    this.deps.jobs.cancel(runId);
    await this.deps.jobs.wait(runId, 10_000);
    return this.status(runId);
  }

  async list(): Promise<RunMeta[]> {
    const ids = await readdir(runsDir(this.deps.home)).catch(() => [] as string[]);
    const metas = await Promise.all(ids.map((id) => this.status(id).catch(() => undefined)));
    return metas.filter((meta): meta is RunMeta => meta !== undefined).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async analyze(protocolName: string, output: unknown, runId?: string): Promise<RunAnalysis> {
    return (await this.protocol(protocolName)).analyze(output, runId ? { dir: runDir(this.deps.home, runId) } : {});
  }

  private async protocol(name: string): Promise<AnyRunProtocol> {
    const entry = this.deps.protocols[name];
    if (!entry) throw new ToolRefusal(`unknown protocol "${name}"; use one of: ${this.protocolNames().join(', ')}`);
    return typeof entry === 'function' ? entry() : entry;
  }

  /** The files of a run are always the ones in its folder, whatever a (hand-edited) run.json says. */
  private async readMeta(runId: string): Promise<RunMeta> {
    const dir = runDir(this.deps.home, runId);
    const files = runFiles(dir);
    try {
      return { ...((await readJsonFile(files.meta, `run.json of run ${runId}`)) as RunMeta), files };
    } catch (error) {
      if (isMissingFile(error)) throw new ToolRefusal(`no run "${runId}"; call run_list to see the runs`);
      throw error;
    }
  }

  private finished(meta: RunMeta, status: RunStatus, error?: string): RunMeta {
    const job = this.deps.jobs.get(meta.runId);
    return { ...meta, status, progress: job?.progress ?? meta.progress, updatedAt: this.clock().toISOString(), ...(error ? { error } : {}) };
  }

  private async writeMeta(meta: RunMeta): Promise<void> {
    await writeJsonFileAtomic(meta.files.meta, meta);
  }
}

function runFiles(dir: string): RunMeta['files'] {
  return { output: join(dir, 'output.json'), audit: join(dir, 'audit.jsonl'), meta: join(dir, 'run.json') };
}

const isEmptyConfig = (config: unknown): boolean => typeof config === 'object' && config !== null && Object.keys(config).length === 0;

function newRunId(protocol: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${protocol}-${stamp}-${randomBytes(3).toString('hex')}`;
}
