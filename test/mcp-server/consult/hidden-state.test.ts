import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestBody } from '../../doubles/scripted-responses.js';
import { closeOpenRigs, startConsultRig } from './rig.js';

afterEach(closeOpenRigs);

/** What the commands Codex ran sent back to the model. */
const commandOutput = (body: RequestBody): string =>
  ((body?.input ?? []) as any[]).filter((item) => item?.type === 'function_call_output').map((item) => String(item.output)).join('\n');

describe("the consultee's sandbox (stdio, real codex)", () => {
  it("cannot read other deliberations, parley's state or Codex's sessions; it still reads the project", { timeout: 180_000 }, async () => {
    let command = '';
    const r = await startConsultRig(({ body, index }) => {
      if (index === 0) return { toolCall: { command: ['sh', '-c', command] } };
      return { text: `1. INFERENCE: what the commands showed:\n${commandOutput(body)}` };
    });
    const other: string = (await r.ok('delib_start', { question: 'SECRET-QUESTION-OF-ANOTHER deliberation', material: 'SECRET-MATERIAL', consult: false })).deliberationId;
    const project = join(r.codex.workDir, 'README.md');
    await writeFile(project, 'PROJECT-README-IS-READABLE');
    const deliberations = join(r.stateDir, 'deliberations');
    command = [
      `cat ${deliberations}/${other}.json`,
      `cat ${deliberations}/${other}.audit.jsonl`,
      `ls ${r.stateDir}`,
      `ls ${r.codex.codexHome}/sessions`,
      `cat ${r.codex.codexHome}/config.toml`,
      `cat ${project}`,
    ].join('; ');

    const started = await r.ok('delib_start', { question: 'How big should the DB pool be?', consult: { waitSeconds: 55 } });
    const seen = commandOutput(r.server.requests[1]!.body);
    for (const path of [`${deliberations}/${other}.json`, `${deliberations}/${other}.audit.jsonl`, r.stateDir, `${r.codex.codexHome}/sessions`, `${r.codex.codexHome}/config.toml`]) {
      expect(seen).toMatch(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}'?: Permission denied`));
    }
    expect(seen).not.toMatch(/SECRET|model_provider/);
    expect(seen).toContain('PROJECT-README-IS-READABLE');
    // What reaches the state and the audit log holds none of it either.
    const id: string = started.deliberationId;
    expect(JSON.stringify((await r.stateFile(id)).value)).not.toContain('SECRET');
    expect(JSON.stringify(await r.audit(id))).not.toContain('SECRET');
  });
});
