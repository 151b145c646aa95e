import { describe, expect, it } from 'vitest';
import { recordLeaks } from '../../../scripts/ab/record-leaks.js';

describe('recordLeaks: what of parley\'s record an answer for the user holds', () => {
  it.each([
    ['a point id', 'P2.1 Replaces P1.1: Delay range, B wins.', 'point id "P2.1"'],
    ['a point id inside a sentence', 'As agreed in P1.5, the speed gain is modest.', 'point id "P1.5"'],
    ['fact ids in a run', 'Given F1, F2 and F3, strings stay.', 'record id "F1, F2 and F3"'],
    ['a range of fact ids', 'INFERENCE (from F1–F4): one build is enough.', 'record id "F1–F4"'],
    ['a challenge id in brackets', 'The retention gap (C3) was conceded.', 'record id "(C3)"'],
    ['a challenge id before what parley says of it', 'C3 conceded; C1 closes with it.', 'record id "C3 conceded"'],
    ['a fact id after a citing word', 'This rests on the user constraint per F2.', 'record id "per F2"'],
    ['a surfaced question as a line label', 'Open:\nQ1 Do a meaningful share of your users run Jest?', 'record id "Q1"'],
    ['a fact as a line label', 'F7: verified by running Node 20.', 'record id "F7:"'],
    ['a deliberation id', 'Deliberation d-20261126-232107-578348, quick mode.', 'deliberation id "d-20261126-232107-578348"'],
    ['a parley URI', 'Full report: parley://deliberations/d-1/report.md', 'parley URI "parley://deliberations/d-1/report.md"'],
    ['a Codex scratch path', 'EVIDENCE: `node /tmp/parley-codex-c2EiaC/work/overflow.js`', 'file path "/tmp/parley-codex-c2EiaC/work/overflow.js"'],
    ['a folder in the temp folder', 'I ran it in /tmp/check/run.js', 'file path "/tmp/check/run.js"'],
    ['a generated temp name', 'The output is in /tmp/tmp.k2JdX9', 'file path "/tmp/tmp.k2JdX9"'],
    ['a home folder', 'See /home/ubuntu/.parley/state.json', 'file path "/home/ubuntu/.parley/state.json"'],
    ['a macOS temp folder', 'Codex wrote /var/folders/x1/abc/T/out.txt', 'file path "/var/folders/x1/abc/T/out.txt"'],
    ['this machine\'s work folder', 'The report file is /work/main/state/report.md.', 'file path "/work/main/state/report.md."'],
    ['a line cut mid-sentence', 'EVIDENCE: on node v20.20.2 (setTimeout with 60…\nNext line.', 'cut-off line "EVIDENCE: on node v20.20.2 (setTimeout with 60…"'],
    ['a line cut with three dots', 'The retention window must exceed the retry...', 'cut-off line "The retention window must exceed the retry..."'],
    ['parley\'s truncation mark', 'Codex said: long text [... 1234 more characters]', 'cut-off line "[... 1234 more characters]"'],
  ])('finds %s', (_what, answer, expected) => {
    expect(recordLeaks(answer)).toContain(expected);
  });

  it.each([
    ['an F1 score', 'The classifier reached an F1 score of 0.92.'],
    ['a quarter and a year', 'Node 20 reached end of life in Q1 2026; plan the upgrade in Q2.'],
    ['quarters in a run before a year', 'Traffic grew from Q1 to Q3 2025.'],
    ['an S3 bucket and C2 instances', 'Write the export to an S3 bucket; C2 instances are not needed.'],
    ['a key name', 'Press F5 to reload, or Ctrl+C to stop.'],
    ['a C4 diagram in brackets', 'Draw it as a container diagram (C4 model).'],
    ['versions and percentiles', 'HTTP/1.1 keep-alive, p99 latency, ES2023, V8 11.3, UTF-8, node v20.20.2.'],
    ['a URL', 'See https://nodejs.org/api/http.html#serverkeepalivetimeout and https://example.com/home/docs.'],
    ['API routes', 'Rate-limit POST /v1/exports and GET /api/users/:id.'],
    ['system paths', 'Shebang `#!/usr/bin/env node`; discard with `> /dev/null`; read /etc/hosts; WORKDIR /opt/app.'],
    ['a file straight in /tmp in a command the user can run', 'Try `node -e "fs.truncateSync(\'/tmp/big.ndjson\', 3 * 2 ** 30)"`.'],
    ['an elision in a code block', '```ts\napp.listen(3000);\n// ...\nconst server = http.createServer(...\n```'],
    ['an ellipsis that ends a list', 'Options:\n...'],
    ['an ellipsis mid-line', 'It works... mostly. Then it stops.'],
    ['a sentence that ends properly', 'Set `server.keepAliveTimeout = 65_000`.'],
  ])('leaves %s alone', (_what, answer) => {
    expect(recordLeaks(answer)).toEqual([]);
  });

  it('lists each leak once, all kinds together', () => {
    const answer = 'P1.2 AGREED (C3). P1.2 again.\nReport: parley://deliberations/d-20261126-232107-578348/report.md';
    expect(recordLeaks(answer)).toEqual([
      'point id "P1.2"',
      'record id "(C3)"',
      'deliberation id "d-20261126-232107-578348"',
      'parley URI "parley://deliberations/d-20261126-232107-578348/report.md"',
    ]);
  });
});
