import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDecisionRecord, type DecisionRecord } from '../../../protocols/decisions/index.js';

/** A team's decision folder: 35 records in adr-tools, MADR 2, 3 and 4 form, some superseded, with a README and a template. */
export const FIXTURE_REPO = join(import.meta.dirname, 'fixtures');
export const FIXTURE_FOLDER = join(FIXTURE_REPO, 'docs', 'adr');

export function fixtureRecords(): DecisionRecord[] {
  return readdirSync(FIXTURE_FOLDER)
    .map((file) => parseDecisionRecord(file, readFileSync(join(FIXTURE_FOLDER, file), 'utf8')))
    .filter((record) => record !== undefined);
}
