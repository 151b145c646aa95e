import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The import boundaries of shared/design.md are lint rules: a file that crosses one fails `npm run lint`. */
const root = resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });
const ruleIds = async (file: string, code: string) => (await eslint.lintText(code, { filePath: resolve(root, file) })).flatMap((r) => r.messages.map((m) => m.ruleId));

describe('layer boundaries', () => {
  it('refuse an upward import in mcp-server/, protocols/, wrapper/, state/ and schemas/', async () => {
    expect(await ruleIds('mcp-server/x.ts', "import { runInterruptible } from '../cli/shared.js';\nexport const x = runInterruptible;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('protocols/sweep/x.ts', "import { runInterruptible } from '../../cli/shared.js';\nexport const x = runInterruptible;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('protocols/argumentation/x.ts', "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const x = McpServer;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('protocols/debate/x.ts', "import { createDeps } from '../../mcp-server/deps.js';\nexport const x = createDeps;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('wrapper/codex/x.ts', "import { readReply } from '../../protocols/argumentation/index.js';\nexport const x = readReply;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('state/x.ts', "import { judge } from '../protocols/argumentation/moves/judgment.js';\nexport const x = judge;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('schemas/x.ts', "import { BackendError } from '../wrapper/backend.js';\nexport const x = BackendError;\n")).toContain('no-restricted-imports');
  });

  it('allow the downward ones', async () => {
    expect(await ruleIds('protocols/argumentation/x.ts', "import { z } from 'zod';\nimport { Usage } from '../../schemas/common.js';\nexport const x = [z, Usage];\n")).not.toContain('no-restricted-imports');
    expect(await ruleIds('mcp-server/x.ts', "import { readReply } from '../protocols/argumentation/index.js';\nexport const x = readReply;\n")).not.toContain('no-restricted-imports');
    expect(await ruleIds('cli/x.ts', "import { serveStdio } from '../mcp-server/stdio.js';\nexport const x = serveStdio;\n")).not.toContain('no-restricted-imports');
  });

  it('keep the argumentation engine layered: core <- rules, reading <- report <- moves, prompts, views', async () => {
    const code = (from: string) => `import * as m from '${from}';\nexport const x = m;\n`;
    expect(await ruleIds('protocols/argumentation/core/x.ts', code('../moves/result.js'))).toContain('no-restricted-imports');
    expect(await ruleIds('protocols/argumentation/reading/x.ts', code('../report/report-markdown.js'))).toContain('no-restricted-imports');
    expect(await ruleIds('protocols/argumentation/report/x.ts', code('../moves/judgment.js'))).toContain('no-restricted-imports');
    expect(await ruleIds('protocols/argumentation/moves/x.ts', code('../index.js'))).toContain('no-restricted-imports');
    expect(await ruleIds('protocols/argumentation/moves/x.ts', code('../report/synthesis-report.js'))).not.toContain('no-restricted-imports');
    expect(await ruleIds('protocols/argumentation/report/x.ts', code('../core/queries.js'))).not.toContain('no-restricted-imports');
  });
});
