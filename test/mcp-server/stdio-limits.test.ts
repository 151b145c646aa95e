import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LineLimit, requestIdOf } from '../../mcp-server/line-limit.js';

const root = resolve(import.meta.dirname, '../..');
let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-stdio-limits-'));
});
afterAll(async () => rm(home, { recursive: true, force: true }));

describe('a request larger than the stdio limit', () => {
  it('is answered with a JSON-RPC error and a stderr line, and the server keeps serving', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', join(root, 'cli/main.ts')],
      cwd: root,
      env: { ...process.env, PARLEY_STATE_DIR: home } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'stdio-limits', version: '0' });
    await client.connect(transport);
    const huge = 'x'.repeat(11 * 1024 * 1024);
    await expect(client.callTool({ name: 'delib_start', arguments: { question: huge, mode: 'quick' } }, undefined, { timeout: 20_000 })).rejects.toThrow(
      /-32600.*at most 10 MiB per message/,
    );
    // Still serving: the next request is answered as usual.
    const { tools } = await client.listTools(undefined, { timeout: 20_000 });
    expect(tools.map((tool) => tool.name)).toContain('run_result');
    expect(stderr).toMatch(/parley: message of 11\.0 MiB dropped/);
    await client.close();
  });
});

describe('LineLimit', () => {
  const run = async (chunks: string[], max: number) => {
    const passed: string[] = [];
    const dropped: unknown[] = [];
    const limit = new LineLimit(max, (line) => dropped.push(line));
    limit.on('data', (chunk: Buffer) => passed.push(chunk.toString()));
    for (const chunk of chunks) limit.write(Buffer.from(chunk));
    limit.end();
    await new Promise((done) => limit.on('end', done));
    return { passed, dropped };
  };

  it('passes whole lines, one per chunk, however the input is cut', async () => {
    const { passed, dropped } = await run(['{"a":1}\n{"b"', ':2}\n{"c":3}\n'], 64);
    expect(passed).toEqual(['{"a":1}\n', '{"b":2}\n', '{"c":3}\n']);
    expect(dropped).toEqual([]);
  });

  it('drops a line over the limit, with its size and id, and goes on with the next', async () => {
    const long = `{"method":"tools/call","params":{"q":"${'y'.repeat(100)}"},"jsonrpc":"2.0","id":7}\n`;
    const { passed, dropped } = await run([long.slice(0, 40), long.slice(40), '{"id":8}\n'], 64);
    expect(dropped).toEqual([{ bytes: long.length, id: 7 }]);
    expect(passed).toEqual(['{"id":8}\n']);
  });

  it('finds the id at the head of a long line that arrives in one chunk', async () => {
    const long = `{"jsonrpc":"2.0","id":"req-9","method":"tools/call","params":{"q":"${'z'.repeat(200)}"}}\n`;
    const { passed, dropped } = await run([long + '{"id":10}\n'], 64);
    expect(dropped).toEqual([{ bytes: long.length, id: 'req-9' }]);
    expect(passed).toEqual(['{"id":10}\n']);
  });

  it('finds the id at either end of a message, or none', () => {
    expect(requestIdOf('{"jsonrpc":"2.0","id":"abc","method":"x","params":{', '')).toBe('abc');
    expect(requestIdOf('{"method":"x","params":{"id":5', '"jsonrpc":"2.0","id":12}')).toBe(12);
    expect(requestIdOf('{"method":"x","params":{"id":5', '"x":"y"}}')).toBeUndefined();
  });
});
