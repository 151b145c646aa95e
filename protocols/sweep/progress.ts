import { visibleControls } from '../../schemas/visible-controls.js';
import type { SweepEvent } from './sweep.js';

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface SweepProgress {
  onEvent(event: SweepEvent): void;
  /** Ends the live line (terminal) so later output starts on a fresh line. */
  finish(): void;
}

const tokens = (count: number) => count.toLocaleString('en-US');

/**
 * On a terminal one status line redrawn in place (runs done, running, failed, tokens so far);
 * anywhere else (a CI log, a Slurm output file) one plain line per run event.
 */
export function createSweepProgress(sink: ProgressSink, tty = sink.isTTY === true): SweepProgress {
  let total = 0;
  let done = 0;
  let failed = 0;
  let spent = 0;
  const running = new Set<string>();
  let lastLine = '';
  const status = () => `sweep: ${done}/${total} done, ${running.size} running, ${failed} failed, ${tokens(spent)} tokens`;
  const redraw = () => {
    const line = status();
    if (line === lastLine) return;
    lastLine = line;
    sink.write(`\r\x1b[2K${line}`);
  };
  const say = (text: string) => {
    // A failed run's error may quote a model: only this display's own controls reach the terminal.
    const line = visibleControls(text);
    if (tty) {
      sink.write(`\r\x1b[2K${line}\n`);
      lastLine = '';
      redraw();
    } else sink.write(`${line}\n`);
  };
  return {
    onEvent(event) {
      switch (event.type) {
        case 'planned':
          total = event.inShard;
          done = event.finished;
          say(`sweep: ${event.inShard} run(s) in this shard of ${event.total}, ${event.finished} finished already, ${event.toRun} to run`);
          break;
        case 'run-started':
          running.add(event.id);
          if (tty) redraw();
          else say(`[${done}/${total}] ${event.resumed ? 'continuing' : 'starting'} ${event.id}`);
          break;
        case 'run-finished': {
          running.delete(event.id);
          done += event.result.status === 'ok' ? 1 : 0;
          failed += event.result.status === 'failed' ? 1 : 0;
          const spend = `${tokens(event.result.usage.inputTokens + event.result.usage.outputTokens)} tokens${event.result.costUsd === null ? '' : `, $${event.result.costUsd.toFixed(4)}`}`;
          if (event.result.status === 'ok') say(`[${done}/${total}] finished ${event.id} (${spend})`);
          else say(`[${done}/${total}] FAILED ${event.id}: ${event.result.error ?? 'unknown error'}`);
          break;
        }
        case 'tokens':
          spent = event.usage.inputTokens + event.usage.outputTokens;
          if (tty) redraw();
          break;
        case 'rate-limited':
          say(`rate limited by ${event.spec}: retry ${event.retry}`);
          break;
        case 'run-progress':
          break;
      }
    },
    finish() {
      if (tty && lastLine) sink.write('\n');
      lastLine = '';
    },
  };
}
