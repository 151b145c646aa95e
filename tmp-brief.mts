import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { plainLines } from './protocols/argumentation/report/plain-lines.ts';
import { sourceFromData } from './protocols/report/source.ts';
const dir = process.argv[2]!;
const f = readdirSync(dir).find((n) => n.endsWith('.json') && n.startsWith('d-'))!;
const s = sourceFromData(JSON.parse(readFileSync(join(dir, f), 'utf8')));
if (s.kind === 'argumentation') { const l = plainLines(s.state); console.log(l.turnsOn.join('\n')); console.log('--changed'); console.log(l.changed.join('\n')); }
