#!/usr/bin/env node
import { Command } from 'commander';
import { PARLEY_VERSION } from './version.js';
import { productionDepsOptions } from './production.js';

const program = new Command('parley')
  .description('Deliberation between language models under rules a machine enforces')
  .version(PARLEY_VERSION);

program
  .command('serve', { isDefault: true })
  .description('serve the MCP server over stdio (the default)')
  .action(async () => {
    const { serveStdio } = await import('./stdio.js');
    await serveStdio(await productionDepsOptions());
  });

program
  .command('tools')
  .description('print the tool reference as Markdown (the README section is generated from it)')
  .action(async () => {
    const { toolReferenceMarkdown } = await import('./tool-reference.js');
    process.stdout.write(await toolReferenceMarkdown());
  });

await program.parseAsync(process.argv);
