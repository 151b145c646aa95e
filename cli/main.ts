#!/usr/bin/env node
import { Command } from 'commander';
import { PARLEY_VERSION } from '../mcp-server/version.js';
import { productionDepsOptions } from '../mcp-server/production.js';

const program = new Command('parley')
  .description('Deliberation between language models under rules a machine enforces')
  .version(PARLEY_VERSION);

program
  .command('serve', { isDefault: true })
  .description('serve the MCP server over stdio (the default)')
  .action(async () => {
    const profile = (await import('../mcp-server/tool-profiles.js')).checkToolProfile(process.env);
    if (profile) {
      process.stderr.write(`parley: ${profile}; not starting\n`);
      process.exitCode = 1;
      return;
    }
    const { serveStdio } = await import('../mcp-server/stdio.js');
    await serveStdio(await productionDepsOptions());
  });

program
  .command('tools')
  .description('print the tool reference as Markdown (the README section is generated from it)')
  .action(async () => {
    const { toolReferenceMarkdown } = await import('../mcp-server/tool-reference.js');
    process.stdout.write(await toolReferenceMarkdown());
  });

// Protocol commands load their code only when asked for, so `serve` starts fast.
const subcommand = process.argv[2];
if (subcommand === 'dialogic') (await import('./dialogic.js')).registerDialogicCommand(program);
else if (subcommand === 'debate') (await import('./debate.js')).registerDebateCommand(program);
else if (subcommand === 'report') (await import('./report.js')).registerReportCommand(program);
else if (subcommand === 'sweep') (await import('./sweep.js')).registerSweepCommand(program);
else if (subcommand === 'doctor') (await import('./doctor.js')).registerDoctorCommand(program);
else if (subcommand === 'demo') (await import('./demo.js')).registerDemoCommand(program);
else program.addHelpText('after', '\nProtocol runs:\n  dialogic [options]   run the dialogic protocol (parley dialogic --help)\n  debate [options]     run a debate (parley debate --help)\n  report <file...>     HTML or Markdown report of a run or deliberation (parley report --help)\n  sweep <matrix>       run a parameter sweep (parley sweep --help)\n  doctor               check node, codex, claude, keys, endpoints, state folder, plugin (parley doctor --help)\n  demo [--out DIR]     see parley work with no keys: runs against a local demo model, with HTML reports (parley demo --help)');

await program.parseAsync(process.argv);
