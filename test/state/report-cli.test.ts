import { readFile, readdir, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerReportCommand } from '../../cli/report.js';
import { createDeps } from '../../mcp-server/deps.js';
import { AUDIT_WARNING } from '../../state/audit-log.js';
import { runCli } from '../cli/cli-capture.js';
import { makeTempDir } from './helpers.js';

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir: home, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

const report = (file: string) => runCli(registerReportCommand, ['report', file]);

async function deliberation() {
  const deps = createDeps({ home, env: {} });
  await deps.deliberations.start({ question: 'Redis or Memcached for the cache?', mode: 'standard' }, 'd1');
  const { store } = deps.deliberations;
  return { deps, statePath: store.pathFor('d1'), auditPath: store.auditLogPath('d1') };
}

describe('parley report on damaged state', () => {
  it('a torn audit line: the report and the report resource keep the rest of the audit, moves after the tear included', async () => {
    const { deps, statePath, auditPath } = await deliberation();
    const log = deps.deliberations.store.auditLog('d1');
    await log.append({ type: 'move', move: 'first' });
    const text = await readFile(auditPath, 'utf8');
    await writeFile(auditPath, text.slice(0, text.length - 10));
    // The next two moves append through a fresh log, as another server process would.
    await deps.deliberations.store.auditLog('d1').append({ type: 'move', move: 'after-tear-1' });
    await deps.deliberations.store.auditLog('d1').append({ type: 'move', move: 'after-tear-2' });

    const run = await report(statePath);
    expect(run.stderr).toMatch(/^parley report: warning: .*d1\.json: audit log line 2 is not JSON \(a write cut short\?\): skipped\n$/);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(0);
    // What the report resource reads.
    const records = await deps.deliberations.store.auditLog('d1').readAll();
    expect(records.map((record) => record.move ?? record.type)).toEqual(['delib_start', AUDIT_WARNING, 'after-tear-1', 'after-tear-2']);
  });

  it('a state file from a newer parley: the report exits non-zero with the reason, and nothing is moved', async () => {
    const { deps, statePath } = await deliberation();
    const envelope = JSON.parse(await readFile(statePath, 'utf8'));
    const newer = JSON.stringify({ ...envelope, schemaVersion: 99 });
    await writeFile(statePath, newer);
    const run = await report(statePath);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/newer parley.*schemaVersion 99/);
    // A read-only status does not move it either.
    await expect(deps.deliberations.get('d1')).rejects.toMatchObject({ kind: 'future-version' });
    expect(await readFile(statePath, 'utf8')).toBe(newer);
    expect((await readdir(deps.deliberations.store.dir)).sort()).toEqual(['d1.audit.jsonl', 'd1.json']);
  });
});
