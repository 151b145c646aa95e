import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { nodeFs, type FileHandleSeam, type FsSeam } from '../../state/fs-seam.js';

export const CounterDoc = z.object({
  count: z.number().int().nonnegative(),
  writers: z.array(z.string()),
});
export type CounterDoc = z.infer<typeof CounterDoc>;

export async function makeTempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-state-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export type FaultPoint = 'open' | 'writeFile' | 'datasync' | 'close' | 'rename' | 'dir-sync' | 'readFile' | 'unlink';

/**
 * A real file system with one planned failure: the next call at `point` whose path matches
 * throws an EIO error. Everything else goes to node's fs.
 */
export function faultyFs(base: FsSeam = nodeFs) {
  let plan: { point: FaultPoint; matches: (path: string) => boolean; code: string } | undefined;
  const hits: string[] = [];
  const maybeFail = (point: FaultPoint, path: string) => {
    if (plan && plan.point === point && plan.matches(path)) {
      plan = undefined;
      hits.push(`${point} ${path}`);
      throw Object.assign(new Error(`injected ${point} failure on ${path}`), { code: 'EIO' });
    }
  };
  const wrapHandle = (handle: FileHandleSeam, path: string, isDir: boolean): FileHandleSeam => ({
    writeFile: async (data) => {
      maybeFail('writeFile', path);
      await handle.writeFile(data);
    },
    datasync: async () => {
      maybeFail('datasync', path);
      await handle.datasync();
    },
    sync: async () => {
      maybeFail(isDir ? 'dir-sync' : 'datasync', path);
      await handle.sync();
    },
    close: async () => {
      await handle.close();
      maybeFail('close', path);
    },
  });
  const fs: FsSeam = {
    ...base,
    open: async (path, flags) => {
      maybeFail('open', path);
      return wrapHandle(await base.open(path, flags), path, flags === 'r');
    },
    readFile: async (path) => {
      maybeFail('readFile', path);
      return base.readFile(path);
    },
    rename: async (from, to) => {
      maybeFail('rename', to);
      await base.rename(from, to);
    },
    unlink: async (path) => {
      maybeFail('unlink', path);
      await base.unlink(path);
    },
  };
  return {
    fs,
    hits,
    failNext(point: FaultPoint, matches: (path: string) => boolean = () => true) {
      plan = { point, matches, code: 'EIO' };
    },
  };
}
