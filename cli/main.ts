#!/usr/bin/env node
import { Command } from 'commander';
import { PARLEY_VERSION } from '../mcp-server/version.js';
import { productionDepsOptions } from '../mcp-server/production.js';
import { parleyCommand } from './invocation.js';

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
const LAZY_COMMANDS: Record<string, { load: () => Promise<void>; usage: string; summary: string }> = {
  dialogic: { load: async () => (await import('./dialogic.js')).registerDialogicCommand(program), usage: 'dialogic [options]', summary: 'run the dialogic protocol' },
  debate: { load: async () => (await import('./debate.js')).registerDebateCommand(program), usage: 'debate [options]', summary: 'run a debate' },
  report: { load: async () => (await import('./report.js')).registerReportCommand(program), usage: 'report <file...>', summary: 'HTML or Markdown report of a run or deliberation' },
  sweep: { load: async () => (await import('./sweep.js')).registerSweepCommand(program), usage: 'sweep <matrix>', summary: 'run a parameter sweep' },
  demo: { load: async () => (await import('./demo.js')).registerDemoCommand(program), usage: 'demo [--out DIR]', summary: 'see parley work with no keys: runs against a local demo model, with HTML reports' },
  doctor: { load: async () => (await import('./doctor.js')).registerDoctorCommand(program), usage: 'doctor', summary: 'check node, codex, claude, keys, endpoints, state folder, plugin' },
  decisions: { load: async () => (await import('./decisions.js')).registerDecisionsCommand(program), usage: 'decisions', summary: "the repository's decision records (ADRs): list, search <words>, show <number>" },
};

// `parley help debate` asks for the debate command's help: it must be registered too.
const named = process.argv[2] === 'help' ? process.argv[3] : process.argv[2];
const lazy = named === undefined ? undefined : LAZY_COMMANDS[named];
if (lazy) await lazy.load();
else {
  const parley = parleyCommand();
  const lines = Object.entries(LAZY_COMMANDS).map(([name, command]) => `  ${command.usage.padEnd(20)} ${command.summary} (${parley} ${name} --help)`);
  program.addHelpText('after', `\nProtocol runs:\n${lines.join('\n')}`);
}

// `serve` is the default command: without this, an unknown word would reach it as "too many arguments for 'serve'".
const known = new Set([...program.commands.map((command) => command.name()), ...Object.keys(LAZY_COMMANDS), 'help']);
if (named !== undefined && !named.startsWith('-') && !known.has(named)) {
  process.stderr.write(`parley: unknown command '${named}'. Commands: ${[...known].join(', ')} (${parleyCommand()} --help says what each does)\n`);
  process.exitCode = 1;
} else {
  await program.parseAsync(process.argv);
}
