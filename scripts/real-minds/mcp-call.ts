/**
 * One tool call through the running mcp-session.ts; prints exactly what Claude Code shows the model
 * (structuredContent as JSON, else the text; "ERROR: ..." for a refusal). Progress goes to stderr.
 *
 *   node --import tsx scripts/real-minds/mcp-call.ts --dir <folder> <tool> '<json args>'
 *   node --import tsx scripts/real-minds/mcp-call.ts --dir <folder> tools
 *
 * Exit status: 0 when the session answered (a tool error included), 2 when the rig itself failed.
 */
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { cliArgs, fail, socketPath, type SessionReply, type SessionRequest } from './common.js';

const { dir, positionals } = cliArgs();
const [tool, rawArgs = '{}'] = positionals;
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
