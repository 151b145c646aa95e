import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deliberationChanges } from '../../protocols/argumentation/report/changes.js';
import { sourceFromData } from '../../protocols/report/source.js';

/**
 * Where Codex reversed itself in a parley arm's record (`<arm>/record/<id>.json`, as keep-pair.ts keeps
 * it): each claim it replaced, narrowed or gave up after an objection. Issue 26 asks that every such reversal be
 * visible in the final answer; the judges say whether they saw one (`reversalVisible`).
 * undefined when the arm kept no record (a pair kept before records were).
 */
export function codexReversals(armFolder: string): number | undefined {
  const record = join(armFolder, 'record');
  if (!existsSync(record)) return undefined;
  const states = readdirSync(record).filter((name) => name.endsWith('.json'));
  if (states.length !== 1) throw new Error(`${record} holds ${states.length} state files: expected the one deliberation's`);
  const file = join(record, states[0]!);
  const source = sourceFromData(JSON.parse(readFileSync(file, 'utf8')), { label: file });
  if (source.kind !== 'argumentation') throw new Error(`${file} is not a deliberation's state file`);
  // A claim Codex rewrote on its own (a relabelling, a side remark) is no reversal: one an objection overturned is.
  return deliberationChanges(source.state).filter((c) => c.kind !== 'agreed-narrower' && c.objection).length;
}
