import type { Backend } from '../wrapper/backend.js';
import { stateHome } from '../state/paths.js';
import { JobManager } from './jobs.js';
import { RunManager, type ProtocolEntry } from './runs.js';
import { Deliberations } from './deliberations.js';
import { ConsultService } from './consult-service.js';
import type { CodexCallOptions, CodexCallResult } from '../wrapper/codex/index.js';
import type { ReadinessCheck } from '../wrapper/readiness.js';
import { modelChecker, type ModelChecker } from './model-checks.js';

/** Everything a tool needs from the outside world, made once per server. */
export interface ServerDeps {
  home: string;
  /** The folder the server was started in: its repository's decision records are the ones searched and written. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  clock: () => Date;
  jobs: JobManager;
  runs: RunManager;
  deliberations: Deliberations;
  consults: ConsultService;
  backendFor(spec: string): Backend;
  /** Checks the models a consult, an arbitration or a run will call before it starts (model-checks.ts). */
  checkModels: ModelChecker;
}

export interface DepsOptions {
  home?: string;
  /** Default: this process's working folder. */
  cwd?: string;
  /** Deliberation files go here instead of <home>/deliberations. */
  deliberationsDir?: string;
  env?: NodeJS.ProcessEnv;
  clock?: () => Date;
  backendFor?: (spec: string) => Backend;
  runCodex?: (options: CodexCallOptions) => Promise<CodexCallResult>;
  protocols?: Record<string, ProtocolEntry>;
  /** Whether one model spec can be called (default: wrapper/readiness.ts's whyNotReady, as the CLI checks). */
  modelCheck?: ReadinessCheck;
}

export function createDeps(options: DepsOptions = {}): ServerDeps {
  const env = options.env ?? process.env;
  const home = options.home ?? stateHome(env);
  const clock = options.clock ?? (() => new Date());
  const jobs = new JobManager(clock);
  const backendFor =
    options.backendFor ??
    ((spec: string): Backend => {
      throw new Error(`no backend factory configured for ${spec}`);
    });
  const checkModels = modelChecker(env, options.modelCheck);
  const runs = new RunManager({ home, jobs, protocols: options.protocols ?? {}, backendFor, clock, checkModels });
  const deliberations = new Deliberations({ env, home, dir: options.deliberationsDir, clock });
  const consults = new ConsultService({ deliberations, jobs, env, hidden: [home, deliberations.store.dir], runCodex: options.runCodex, checkModels });
  return { home, cwd: options.cwd ?? process.cwd(), env, clock, jobs, runs, deliberations, consults, backendFor, checkModels };
}
