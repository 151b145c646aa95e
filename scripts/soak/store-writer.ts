// A writer process of the store-kill soak: argv = dir id mode name.
//   mode "write": updates forever, each adding the token `<name>.<i>` to the document (with an audit
//     line), and prints the token once the update resolved: an acknowledged write.
//   mode "hold": takes the document's lock, prints "held" and waits to be killed.
import { createDocumentStore } from '../../state/document-store.js';
import { acquireFileLock } from '../../state/file-lock.js';
import { nodeFs } from '../../state/fs-seam.js';
import { SoakDoc } from './soak-doc.js';

const [dir, id, mode, name] = process.argv.slice(2);
if (!dir || !id || !name || (mode !== 'write' && mode !== 'hold')) throw new Error('usage: store-writer <dir> <id> <write|hold> <name>');
const store = createDocumentStore({ dir, schema: SoakDoc, currentVersion: 1 });

if (mode === 'hold') {
  await acquireFileLock(`${store.pathFor(id)}.lock`, { fs: nodeFs, staleMs: 600_000, timeoutMs: 60_000 });
  process.stdout.write('held\n');
  setInterval(() => undefined, 60_000);
} else {
  for (let i = 0; ; i++) {
    const token = `${name}.${i}`;
    await store.update(id, (doc) => ({ value: { count: doc.count + 1, tokens: [...doc.tokens, token] }, result: null }), { audit: { type: 'soak', token } });
    process.stdout.write(`${token}\n`);
  }
}
