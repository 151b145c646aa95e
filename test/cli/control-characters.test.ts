import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeOpenRigs, SERVER_ENTRY, startConsultRig } from '../mcp-server/consult/rig.js';
import { runProcess } from './run-parley.js';

afterEach(closeOpenRigs);

/** What a hostile consultee can put in a reply to drive a terminal or reorder a line. */
const ATTACKS = {
  reset: '\x1bc',
  saveCursor: '\x1b7',
  index: '\x1bD',
  backspaces: 'SAFE\b\b\b\bEVIL',
  bell: '\x07',
  nul: '\x00',
  title: '\x1b]0;owned\x07',
  carriageReturn: 'shown\rhidden',
  csi: '\u009b2J',
  rtlOverride: '\u202eevil\u202c',
};
const REPLY = `1. INFERENCE: Pool the connections ${Object.values(ATTACKS).join(' ')} done.`;

/** A C0 control but newline and tab, DEL, a C1 control, a bidi embedding, override or isolate. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const controlsIn = (text: string) => [...text].filter((c) => CONTROL.test(c)).map((c) => c.codePointAt(0)!.toString(16));

describe("a consultee's control characters (stdio, real codex, then `parley report` as a child process)", () => {
  it('reach no terminal and no written report: each shows as its escape, the text around it stays', { timeout: 180_000 }, async () => {
    const r = await startConsultRig(() => ({ text: REPLY }));
    const started = await r.ok('delib_start', { question: 'How big should the pool be?', consult: { waitSeconds: 55 } });
    const id: string = started.deliberationId;
    await r.ok('delib_judge', { deliberationId: id, points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a bounded pool protects the database' }] });
    // Recorded as said: the state keeps the reply faithfully, control characters and all.
    const stored = (await r.stateFile(id)).value;
    expect(JSON.stringify(stored)).toContain(JSON.stringify(ATTACKS.backspaces).slice(1, -1));

    const out = await mkdtemp(join(tmpdir(), 'parley-report-'));
    try {
      const statePath = join(r.stateDir, 'deliberations', `${id}.json`);
      const md = join(out, 'report.md');
      const html = join(out, 'report.html');
      const printed = await runProcess(process.execPath, [SERVER_ENTRY, 'report', statePath], { cwd: out });
      const written = await runProcess(process.execPath, [SERVER_ENTRY, 'report', statePath, '--md', md, '--html', html], { cwd: out });
      expect(printed.code).toBe(0);
      expect(written.code).toBe(0);
      const files = { stdout: printed.stdout, stderr: printed.stderr + written.stderr, md: await readFile(md, 'utf8'), html: await readFile(html, 'utf8') };
      for (const [where, text] of Object.entries(files)) expect(controlsIn(text), where).toEqual([]);

      for (const text of [files.stdout, files.md]) {
        expect(text).toContain('SAFE\\u0008\\u0008\\u0008\\u0008EVIL');
        expect(text).toContain('\\u001bc');
        expect(text).toContain('\\u001b\\]0;owned\\u0007');
        expect(text).toContain('\\u009b2J');
        expect(text).toContain('\\u202eevil\\u202c');
        expect(text).toContain('Pool the connections');
      }
      expect(files.html).toContain('SAFE\\u0008\\u0008\\u0008\\u0008EVIL');
      expect(files.html).toContain('\\u202eevil\\u202c');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
