// The smallest stdio MCP server: answers initialize and nothing else. Cold-start baseline.
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let index;
  while ((index = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, index);
    buffer = buffer.slice(index + 1);
    const message = JSON.parse(line);
    if (message.method === 'initialize') {
      const result = { protocolVersion: message.params.protocolVersion, capabilities: {}, serverInfo: { name: 'baseline', version: '0' } };
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\n');
    }
  }
});
