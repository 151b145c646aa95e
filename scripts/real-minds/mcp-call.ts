/**
 * One tool call through the running mcp-session.ts; prints exactly what Claude Code shows the model
 * (structuredContent as JSON, else the text; "ERROR: ..." for a refusal). Progress goes to stderr.
 *
 *   node --import tsx scripts/real-minds/mcp-call.ts --dir <folder> <tool> '<json args>'
 *   node --import tsx scripts/real-minds/mcp-call.ts --dir <folder> <tool> --args-file <file.json>
 *   node --import tsx scripts/real-minds/mcp-call.ts --dir <folder> tools
 *
 * --args-file spares a long judgment the shell's quoting (an apostrophe in '...' ends the argument).
 *
 * Exit status: 0 when the session answered (a tool error included), 2 when the rig itself failed.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { cliArgs, fail, socketPath, type SessionReply, type SessionRequest } from './common.js';

const { dir, positionals, values } = cliArgs({ 'args-file': { type: 'string' } });
const [tool, inlineArgs] = positionals;
if (inlineArgs !== undefined && values['args-file']) fail('give the arguments inline or with --args-file, not both');
let rawArgs = inlineArgs ?? '{}';
if (values['args-file']) {
  try {
    rawArgs = readFileSync(values['args-file'], 'utf8');
  } catch (error) {
    fail(`cannot read --args-file: ${(error as Error).message}`);
  }
}
if (!tool) fail("usage: mcp-call.ts --dir <folder> <tool> '<json args>' | tools");

let request: SessionRequest;
if (tool === 'tools') {
  request = { kind: 'tools' };
} else {
  let args: unknown;
  try {
    args = JSON.parse(rawArgs);
  } catch (error) {
    fail(`the arguments are not JSON: ${(error as Error).message}`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) fail('the arguments must be a JSON object');
  request = { kind: 'call', tool, args: args as Record<string, unknown> };
}

const socket = connect(socketPath(dir));
socket.on('error', (error) => fail(`no session on ${socketPath(dir)} (start mcp-session.ts): ${error.message}`));
socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
let answered = false;
for await (const line of createInterface({ input: socket })) {
  const reply = JSON.parse(line) as SessionReply;
  if (reply.kind === 'progress') {
    process.stderr.write(`progress: ${reply.message}\n`);
  } else {
    process.stdout.write(`${reply.text}\n`);
    answered = true;
  }
}
if (!answered) fail('the session closed without an answer');
