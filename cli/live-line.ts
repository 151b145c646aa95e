import { redact } from '../schemas/secrets.js';
import { visibleControls } from '../schemas/visible-controls.js';
import type { RunProgress } from '../protocols/run-protocol.js';

export interface LiveSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** What a run's display is told: progress from the run loop, model calls from the backends. */
export interface LiveLine {
  update(progress: RunProgress): void;
  /** A model call went out; the returned function ends it (with the error when it failed). */
  callStarted(label: string): (failure?: string) => void;
  end(): void;
}

/** In a pipe, a call still pending is reported at these seconds, then every PLAIN_EVERY_S. */
const PLAIN_FIRST_S = 2;
const PLAIN_EVERY_S = 10;
const REASON_CHARS = 240;

interface Pending {
  label: string;
  started: number;
  /** Pipe only: the elapsed second at which it is next reported. */
  nextReport: number;
}

/**
 * On a terminal one line redrawn in place, at least once a second while a call is pending: the
 * run's last progress and every call waited on with its elapsed seconds. Anywhere else plain lines:
 * the progress, and "waiting on ..." after PLAIN_FIRST_S and every PLAIN_EVERY_S. Always on stderr.
 */
export function createLiveLine(sink: LiveSink, options: { now?: () => number; tickMs?: number } = {}): LiveLine {
  const now = options.now ?? (() => performance.now());
  const tty = sink.isTTY === true;
  const pending = new Set<Pending>();
  let counter = '';
  let message = '';
  let open = false;
  let closed = false;
  let ticker: NodeJS.Timeout | undefined;
  const seconds = (call: Pending) => Math.floor((now() - call.started) / 1000);
  const waiting = (calls: Iterable<Pending>) => `waiting on ${[...calls].map((call) => `${call.label} ${seconds(call)} s`).join(', ')}`;

  const redraw = () => {
    if (closed) return;
    // Who is waited on comes before the last progress message: a narrow terminal cuts the end.
    const calls = [...pending].map((call) => `${shorten(call.label)} ${seconds(call)} s`).join(', ');
    const line = visibleControls([counter, calls && `waiting on ${calls}`, message].filter(Boolean).join(' · ').replace(/^(\[[^\]]*\]) · /, '$1 '));
    if (!line) return;
    const width = sink.columns ? sink.columns - 1 : 160;
    sink.write(`\r\x1b[2K${[...line].slice(0, width).join('')}`);
    open = true;
  };
  /** A line that stays: on a terminal it goes above the live line, which is drawn again under it. */
  const say = (text: string) => {
    if (closed) return;
    // Progress and failures quote what models and providers said: only this display's own controls reach the terminal.
    const line = visibleControls(text);
    if (!tty) {
      sink.write(`${line}\n`);
      return;
    }
    sink.write(`\r\x1b[2K${line}\n`);
    open = false;
    redraw();
  };
  const tick = () => {
    if (tty) return redraw();
    const due = [...pending].filter((call) => seconds(call) >= call.nextReport);
    if (due.length === 0) return;
    for (const call of due) call.nextReport = (Math.floor(seconds(call) / PLAIN_EVERY_S) + 1) * PLAIN_EVERY_S;
    say(waiting(due));
  };
  const stopTicking = () => {
    clearInterval(ticker);
    ticker = undefined;
  };

  return {
    update(progress) {
      counter = `[${progress.done}${progress.total ? `/${progress.total}` : ''}]`;
      message = progress.message;
      if (tty) redraw();
      else say(`${counter} ${message}`);
    },
    callStarted(label) {
      const call: Pending = { label, started: now(), nextReport: PLAIN_FIRST_S };
      pending.add(call);
      if (!ticker) {
        ticker = setInterval(tick, options.tickMs ?? 1000);
        ticker.unref();
      }
      if (tty) redraw();
      let ended = false;
      return (failure) => {
        if (ended) return;
        ended = true;
        pending.delete(call);
        if (pending.size === 0) stopTicking();
        if (failure !== undefined) say(`${label} failed: ${oneLine(failure)}`);
        else if (tty) redraw();
      };
    },
    end() {
      stopTicking();
      if (open) sink.write('\n');
      open = false;
      closed = true;
    },
  };
}

/** A long label (an openai-compatible URL) cut in its middle, so the seconds after it stay in view. */
function shorten(label: string, max = 60): string {
  if (label.length <= max) return label;
  const keep = max - 1;
  return `${label.slice(0, Math.ceil(keep / 2))}…${label.slice(label.length - Math.floor(keep / 2))}`;
}

/** A reason fit for one line of live output: secrets redacted, whitespace folded, length bounded. */
export function oneLine(text: string, max = REASON_CHARS): string {
  const folded = redact(text).replace(/\s+/g, ' ').trim();
  return folded.length <= max ? folded : `${folded.slice(0, max - 1)}…`;
}
