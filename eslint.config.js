import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const PURE_PROTOCOLS = { group: ['@modelcontextprotocol/*', '**/mcp-server/**', '**/cli/**'], message: 'protocols/ is pure rules: it never imports the MCP SDK or the server.' };

/** Each folder of the argumentation engine, and the folders above it that it must not import. */
const ENGINE_LAYERS = {
  core: ['rules', 'reading', 'report', 'moves', 'prompts', 'views'],
  rules: ['reading', 'report', 'moves', 'prompts', 'views'],
  reading: ['rules', 'report', 'moves', 'prompts', 'views'],
  report: ['moves', 'prompts', 'views'],
  prompts: ['moves', 'views'],
  moves: ['prompts', 'views'],
  views: ['moves', 'prompts'],
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'plugin/', 'test-output/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: globals.node } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  // The layers (shared/design.md): cli -> mcp-server -> protocols -> (wrapper, state) -> schemas, never back.
  {
    files: ['mcp-server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/cli/**'], message: 'mcp-server/ is the MCP adapter: the command line (cli/) sits above it, never import it.' }] }] },
  },
  {
    files: ['protocols/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PURE_PROTOCOLS] }] },
  },
  // Inside the argumentation engine: core <- (rules, reading) <- report <- (moves, prompts, views) <- index.ts.
  ...Object.entries(ENGINE_LAYERS).map(([folder, above]) => ({
    files: [`protocols/argumentation/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [PURE_PROTOCOLS, { group: ['../index.js', ...above.flatMap((f) => [`../${f}/*`, `../${f}/**`])], message: `protocols/argumentation/${folder}/ sits below ${above.join(', ')} in the engine: never import them.` }] }],
    },
  })),
  {
    files: ['wrapper/**/*.ts', 'state/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/protocols/**', '**/mcp-server/**', '**/cli/**', '@modelcontextprotocol/*'], message: 'wrapper/ and state/ sit below the protocols and the server: never import them.' }] }] },
  },
  {
    files: ['schemas/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/protocols/**', '**/mcp-server/**', '**/cli/**', '**/wrapper/**', '**/state/**', '@modelcontextprotocol/*'], message: 'schemas/ is the lowest layer: it imports nothing of parley above it.' }] }] },
  },
  {
    files: ['cli/**', 'bench/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests poke at JSON of any shape; production code stays strict.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
