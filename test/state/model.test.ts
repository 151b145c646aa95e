import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDocumentStore, isStoreError } from '../../state/document-store.js';
import { CounterDoc, makeTempDir } from './helpers.js';

type Op =
  | { kind: 'create'; id: string; count: number }
  | { kind: 'increment'; id: string; expectStale: boolean }
  | { kind: 'refuse'; id: string }
  | { kind: 'remove'; id: string };

const ids = fc.constantFrom('a', 'b', 'c');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), id: ids, count: fc.nat(100) }),
  fc.record({ kind: fc.constant('increment' as const), id: ids, expectStale: fc.boolean() }),
  fc.record({ kind: fc.constant('refuse' as const), id: ids }),
  fc.record({ kind: fc.constant('remove' as const), id: ids }),
);

describe('the store against an in-memory model', () => {
  it('any sequence of operations leaves exactly the model state and revisions on disk', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
        const { dir, cleanup } = await makeTempDir();
        try {
          const store = createDocumentStore({ dir, schema: CounterDoc, currentVersion: 1 });
          const model = new Map<string, { count: number; revision: number }>();
          for (const step of ops) {
            const known = model.get(step.id);
            const outcome = await run(step, known?.revision).then(
              (value) => ({ ok: true as const, value }),
              (error: unknown) => ({ ok: false as const, kind: isStoreError(error) ? error.kind : String(error) }),
            );
            if (step.kind === 'create') {
              expect(outcome.ok ? 'ok' : outcome.kind).toBe(known ? 'exists' : 'ok');
              if (!known) model.set(step.id, { count: step.count, revision: 1 });
            } else if (!known) {
              expect(outcome).toEqual({ ok: false, kind: 'not-found' });
            } else if (step.kind === 'increment' && step.expectStale && known.revision > 1) {
              expect(outcome).toEqual({ ok: false, kind: 'revision-conflict' });
            } else {
              expect(outcome.ok).toBe(true);
            }
            if (known && outcome.ok && step.kind === 'increment') {
              model.set(step.id, { count: known.count + 1, revision: known.revision + 1 });
            }
            if (known && step.kind === 'remove') model.delete(step.id);
          }
          const listed = await store.list();
          expect(Object.fromEntries(listed.map((entry) => [entry.id, entry.revision]))).toEqual(
            Object.fromEntries([...model].map(([id, doc]) => [id, doc.revision])),
          );
          for (const [id, doc] of model) {
            expect(await store.read(id)).toMatchObject({ revision: doc.revision, value: { count: doc.count } });
          }

          function run(step: Op, revision: number | undefined) {
            switch (step.kind) {
              case 'create':
                return store.create(step.id, { count: step.count, writers: [] });
              case 'increment':
                return store.update(step.id, (doc) => ({ value: { ...doc, count: doc.count + 1 }, result: null }), {
                  expectRevision: step.expectStale && revision !== undefined && revision > 1 ? revision - 1 : revision,
                });
              case 'refuse':
                return store.update(step.id, () => ({ refuse: 'no' }));
              case 'remove':
                return store.remove(step.id);
            }
          }
        } finally {
          await cleanup();
        }
      }),
      { numRuns: 60 },
    );
  });
});
