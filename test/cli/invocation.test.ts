import { describe, expect, it } from 'vitest';
import { parleyCommand, shellWord } from '../../cli/invocation.js';

// Issue 28, item 5: every command parley prints starts as parley was started, so it runs where it is printed.
describe('parleyCommand: how this parley was started, as a person types it', () => {
  const clone = '/home/me/parley';
  it('in a clone, `node <entry>`, relative to the working folder when inside it', () => {
    expect(parleyCommand({ argv: ['/usr/bin/node', `${clone}/plugin/parley-server.mjs`], env: { PATH: '/usr/bin' }, cwd: clone, execArgv: [] })).toBe('node plugin/parley-server.mjs');
    expect(parleyCommand({ argv: ['/usr/bin/node', `${clone}/plugin/parley-server.mjs`], env: { PATH: '/usr/bin' }, cwd: '/tmp/work', execArgv: [] })).toBe(`node ${clone}/plugin/parley-server.mjs`);
  });

  it('the `parley` on PATH of an installed package, `npx parley` under npx', () => {
    expect(parleyCommand({ argv: ['/usr/bin/node', '/usr/local/bin/parley'], env: { PATH: '/usr/local/bin:/usr/bin' }, cwd: '/tmp', execArgv: [] })).toBe('parley');
    const npx = { argv: ['/usr/bin/node', '/tmp/project/node_modules/.bin/parley'], cwd: '/tmp/project', execArgv: [] };
    expect(parleyCommand({ ...npx, env: { PATH: '/tmp/project/node_modules/.bin:/usr/bin', npm_command: 'exec' } })).toBe('npx parley');
    // A `parley` link that is not on PATH is run through node, which takes it as it is.
    expect(parleyCommand({ ...npx, env: { PATH: '/usr/bin' } })).toBe('node node_modules/.bin/parley');
  });

  it('keeps node flags it was started with, and quotes what a shell would split', () => {
    expect(parleyCommand({ argv: ['/usr/bin/node', '/my repo/cli/main.ts'], env: {}, cwd: '/tmp', execArgv: ['--import', '/my repo/node_modules/tsx/dist/loader.mjs'] })).toBe(
      "node --import '/my repo/node_modules/tsx/dist/loader.mjs' '/my repo/cli/main.ts'",
    );
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('parley-demo/debate.json')).toBe('parley-demo/debate.json');
  });
});
