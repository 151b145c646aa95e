// `npm run bench`: speed and size figures, each next to a baseline measured in the same run.
// Run `npm run build` first (the MCP figures use the built server, as clients do).
import { benchMcp } from './mcp.js';
import type { Figure } from './stats.js';

type Bench = { name: string; run: () => Promise<Record<string, number | Figure>> };

const benches: Bench[] = [
  { name: 'MCP server (stdio, SDK client)', run: benchMcp },
  { name: 'state store', run: async () => (await import('./store.js')).benchStore() },
  { name: 'Codex consult vs raw codex exec', run: async () => (await import('./codex.js')).benchCodex() },
  { name: 'delib_consult over stdio vs raw codex exec; prompt bytes per iteration', run: async () => (await import('./consult.js')).benchConsult() },
  { name: 'debate rounds', run: async () => (await import('./debate.js')).benchDebate() },
  { name: 'sweep throughput', run: async () => (await import('./sweep.js')).benchSweep() },
  { name: 'reply reading corpus', run: async () => (await import('./reading.js')).benchReading() },
  { name: 'decisions: search over 1,000 decision records', run: async () => (await import('./decisions.js')).benchDecisions() },
  { name: 'orchestration cost of a deliberation (standard and quick; real codex)', run: async () => (await import('./orchestration.js')).benchOrchestration() },
];

const only = process.argv.slice(2);
for (const bench of benches) {
  if (only.length > 0 && !only.some((word) => bench.name.toLowerCase().includes(word.toLowerCase()))) continue;
  console.log(`\n## ${bench.name}`);
  try {
    const figures = await bench.run();
    for (const [label, figure] of Object.entries(figures)) {
      const { value, note } = typeof figure === 'number' ? { value: figure, note: undefined } : figure;
      console.log(`${label.padEnd(64)} ${format(label, value)}${note ? `  (${note})` : ''}`);
    }
  } catch (error) {
    console.log(`failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}

function format(label: string, value: number): string {
  if (!Number.isFinite(value)) return String(value);
  // A share stays a fraction even when it is whole (1.000, not 1), so scripts can compare it as one.
  if (/(accuracy|share|fraction)$/i.test(label)) return value.toFixed(3);
  // Dotted figure names (orchestration.standard.toolCalls) are compared across versions by scripts: plain digits.
  if (Number.isInteger(value)) return /^[a-z]+(\.[A-Za-z]+)+$/.test(label) ? String(value) : value.toLocaleString('en-US');
  return value < 10 ? value.toFixed(3) : value.toFixed(1);
}
