import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerDeps } from '../deps.js';
import { registerDefinedTool } from '../tool-kit.js';
import { delibStartTool } from './delib-start.js';
import { delibStatusTool } from './delib-status.js';
import { judgeTool } from './judge.js';
import { synthesizeTool } from './synthesize.js';
import { consultTool } from './consult.js';
import { arbitrateTool } from './arbitrate.js';
import { benchNoopTool } from './bench-noop.js';
import { runStartTool } from './run-start.js';
import { runStatusTool } from './run-status.js';
import { runResultTool } from './run-result.js';
import { runCancelTool } from './run-cancel.js';
import { runListTool } from './run-list.js';
import { TOOL_PROFILES, type ToolGroup } from '../tool-profiles.js';

/** The tools of the groups asked for (default: every one), in the fixed order tools/list shows them. */
export function toolDefinitions(deps: ServerDeps, groups: ReadonlySet<ToolGroup> = new Set(TOOL_PROFILES.all)) {
  return [
    ...(groups.has('argumentation')
      ? [delibStartTool(deps), delibStatusTool(deps), consultTool(deps), judgeTool(deps), synthesizeTool(deps), arbitrateTool(deps)]
      : []),
    ...(groups.has('runs') ? [runStartTool(deps), runStatusTool(deps), runResultTool(deps), runCancelTool(deps), runListTool(deps)] : []),
  ];
}

export function registerTools(server: McpServer, deps: ServerDeps, groups?: ReadonlySet<ToolGroup>): void {
  for (const tool of toolDefinitions(deps, groups)) registerDefinedTool(server, tool as never);
  if (deps.env.PARLEY_BENCH_NOOP === '1') registerDefinedTool(server, benchNoopTool());
}
