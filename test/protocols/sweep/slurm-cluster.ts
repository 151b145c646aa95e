/**
 * A real single-node Slurm cluster from Debian's slurm-wlm and munge, owned by one test: its
 * slurm.conf, munge key and socket, state, spool and logs live in a temporary folder, its daemons
 * are this process's children on a free port pair, and `stop` cancels its jobs and ends them all.
 * It needs no systemd and no cgroup delegation (proctrack/pgid, task/none), so it runs in a
 * container as well as on a laptop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { hostname, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';

const DAEMONS = ['munged', 'slurmctld', 'slurmd'] as const;
const CLIENTS = ['sbatch', 'scontrol', 'squeue', 'scancel'] as const;
type Program = (typeof DAEMONS)[number] | (typeof CLIENTS)[number];

/** Where each program is, from PATH and the sbin folders a non-root PATH leaves out; missing ones are absent. */
export function findSlurmPrograms(): { found: Partial<Record<Program, string>>; missing: Program[] } {
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin', '/usr/local/sbin'].filter(Boolean);
  const found: Partial<Record<Program, string>> = {};
  const missing: Program[] = [];
  for (const name of [...DAEMONS, ...CLIENTS]) {
    const path = folders.map((folder) => join(folder, name)).find((candidate) => {
      try {
        accessSync(candidate, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    if (path) found[name] = path;
    else missing.push(name);
  }
  return { found, missing };
}

export interface SlurmCluster {
  /** The environment Slurm's commands need (SLURM_CONF), over the given one. */
  env(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** Runs a Slurm client command; throws with its output when it fails. */
  run(program: (typeof CLIENTS)[number], args: string[]): Promise<string>;
  /** The fields of a job (an array's tasks, or every job without an id) from `scontrol show job -o`: JobState, Restarts, ExitCode... */
  job(id?: string): Promise<Record<string, string>[]>;
  /** The daemons' logs, for a failure message. */
  logs(): Promise<string>;
  /** Cancels what is still queued, stops the daemons and waits for them to exit. */
  stop(): Promise<void>;
}

export const NODE_NAME = 'parley-node';
/** Four two-CPU tasks at once, whatever the machine has (slurmd takes the configured count). */
const NODE_CPUS = 8;
/** Also how long a requeued job waits before it can start again (Slurm's default is 120 s). */
const CRED_EXPIRE_S = 10;

async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

function slurmConf(dir: string, ports: number[]): string {
  const user = userInfo().username;
  const host = hostname();
  return [
    'ClusterName=parleytest',
    `SlurmctldHost=${host}(127.0.0.1)`,
    `SlurmctldPort=${ports[0]}`,
    `SlurmdPort=${ports[1]}`,
    `SlurmUser=${user}`,
    `SlurmdUser=${user}`,
    'AuthType=auth/munge',
    'CredType=cred/munge',
    `AuthInfo=socket=${join(dir, 'munge', 'munge.socket')},cred_expire=${CRED_EXPIRE_S}`,
    `StateSaveLocation=${join(dir, 'state')}`,
    `SlurmdSpoolDir=${join(dir, 'spool')}`,
    `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
    `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
    `SlurmctldLogFile=${join(dir, 'slurmctld.log')}`,
    `SlurmdLogFile=${join(dir, 'slurmd.log')}`,
    `PlugStackConfig=${join(dir, 'plugstack.conf')}`,
    // The job's process group: a task's processes are all signalled and waited for, even once its shell has exited.
    'ProctrackType=proctrack/pgid',
    'TaskPlugin=task/none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'JobCompType=jobcomp/none',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    'SchedulerType=sched/builtin',
    // Eligible jobs start within a second, not at the next minute's pass.
    'SchedulerParameters=sched_interval=1',
    'MpiDefault=none',
    'SwitchType=switch/none',
    'ReturnToService=2',
    // A job is requeued only if it asked for it (`--requeue`), as on clusters that default to no.
    'JobRequeue=0',
    'SlurmdParameters=config_overrides',
    'SlurmctldDebug=info',
    'SlurmdDebug=info',
    `NodeName=${NODE_NAME} NodeAddr=127.0.0.1 NodeHostname=${host} CPUs=${NODE_CPUS} State=UNKNOWN`,
    `PartitionName=main Nodes=${NODE_NAME} Default=YES MaxTime=INFINITE State=UP`,
    '',
  ].join('\n');
}

/** Polls `check` every `everyMs` until it returns a value, or throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Starts munged, slurmctld and slurmd on `dir` (an empty folder the caller owns) and waits until the node is idle. */
export async function startSlurm(dir: string): Promise<SlurmCluster> {
  const { found, missing } = findSlurmPrograms();
  if (missing.length) throw new Error(`Slurm programs missing: ${missing.join(', ')} (Debian packages slurm-wlm and munge)`);
  const path = (name: Program) => found[name]!;
  for (const sub of ['munge', 'state', 'spool']) await mkdir(join(dir, sub), { recursive: true, mode: 0o700 });
  const key = join(dir, 'munge', 'munge.key');
  await writeFile(key, randomBytes(1024), { mode: 0o400 });
  const conf = join(dir, 'slurm.conf');
  await writeFile(conf, slurmConf(dir, await freePorts(2)));
  const env = (base: NodeJS.ProcessEnv = process.env) => ({ ...base, SLURM_CONF: conf });

  const children: { name: string; child: ChildProcess; exited: Promise<void>; stderr: () => string }[] = [];
  const daemon = (name: (typeof DAEMONS)[number], args: string[]) => {
    const child = spawn(path(name), args, { env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    children.push({ name, child, exited, stderr: () => stderr });
  };
  const run = async (program: (typeof CLIENTS)[number], args: string[]) => {
    const result = await execa(path(program), args, { env: env(), reject: false, timeout: 30_000 });
    if (result.exitCode !== 0) throw new Error(`${program} ${args.join(' ')} exited ${result.exitCode}: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const logs = async () => {
    const files = ['slurmctld.log', 'slurmd.log'];
    const texts = await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8').catch(() => '(none)')));
    const stderrs = children.map(({ name, stderr }) => `${name} stderr: ${stderr().trim() || '(empty)'}`);
    return [...files.map((file, i) => `--- ${file}\n${texts[i]!.split('\n').slice(-30).join('\n')}`), ...stderrs].join('\n');
  };
  const stop = async () => {
    const controller = children.find(({ name }) => name === 'slurmctld')?.child;
    if (controller && controller.exitCode === null) {
      await run('scancel', ['--user', userInfo().username]).catch(() => undefined);
      await waitFor('the queue to empty', async () => ((await run('squeue', ['-h']).catch(() => '')).trim() === '' ? true : undefined), 30_000).catch(() => undefined);
      await run('scontrol', ['shutdown']).catch(() => undefined);
    }
    // scontrol shutdown stops both Slurm daemons; a signal stops munged, or a daemon the shutdown missed.
    for (const { child, exited } of [...children].reverse()) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 15_000)))]);
      clearTimeout(timer);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  };

  try {
    const munge = join(dir, 'munge');
    daemon('munged', ['--foreground', '--force', `--socket=${join(munge, 'munge.socket')}`, `--key-file=${key}`, `--pid-file=${join(munge, 'munged.pid')}`, `--seed-file=${join(munge, 'munged.seed')}`]);
    await waitFor('munged to make its socket', async () => (existsSync(join(munge, 'munge.socket')) ? true : undefined), 30_000, 100);
    daemon('slurmctld', ['-D', '-i', '-f', conf]);
    daemon('slurmd', ['-D', '-N', NODE_NAME, '-f', conf]);
    await waitFor(
      'the node to be idle',
      async () => {
        for (const { name, child } of children) if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode})`);
        const state = await run('scontrol', ['show', 'node', NODE_NAME, '-o']).catch(() => '');
        return /State=IDLE\b/.test(state) ? true : undefined;
      },
      60_000,
    );
  } catch (error) {
    const detail = await logs();
    await stop();
    throw new Error(`the test's Slurm did not start: ${error instanceof Error ? error.message : String(error)}\n${detail}`);
  }

  return {
    env,
    run,
    async job(id) {
      const text = await run('scontrol', ['show', 'job', ...(id ? [id] : []), '-o']);
      return text
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => Object.fromEntries([...line.matchAll(/(\w+)=(\S*)/g)].map((match) => [match[1]!, match[2]!])));
    },
    logs,
    stop,
  };
}
