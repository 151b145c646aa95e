export { runCodex, DEFAULT_CODEX_TIMEOUT_MS, type CodexCallOptions, type CodexCallResult } from './run.js';
export { resolveCodexPath } from './resolve-path.js';
export { createCodexBackend } from './backend.js';
export { parseJsonEvents, parseEventLine, eventLine, CodexEvent, type ParsedJsonRun } from './events.js';
export { parsePlainOutput, type ParsedPlainRun } from './plain.js';
export { buildCodexArgs, type CodexSandbox } from './argv.js';
export { checkCodexCall } from './hidden-paths.js';
