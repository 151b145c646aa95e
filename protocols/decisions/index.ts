// A team's decision records (ADRs) kept in its repository: read, searched, written and superseded.
export { parseDecisionRecord, recordId, stands, type DecisionRecord } from './record.js';
export { indexDecisions, MIN_RELEVANCE, type DecisionHit, type DecisionSearch } from './search.js';
export { markSuperseded, nextNumber, recordFileName, withSupersedes } from './supersede.js';
export { findRecord, openDecisionFolder, requireDecisionFolder, searchDecisions, writeDecisionRecord, type DecisionFolder, type WrittenRecord } from './folder.js';
export { conflictLines, listLines, recordLine, recordView, searchLines, statusText } from './view.js';
