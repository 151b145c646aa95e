// A stand-in for `parley sweep ...` in child-process tests: the sweep command alone.
import { Command } from 'commander';
import { registerSweepCommand } from '../../mcp-server/cli/sweep.js';

const program = new Command('parley');
registerSweepCommand(program);
await program.parseAsync(process.argv);
