import type { RunProgress } from '../../protocols/run-protocol.js';

/** One rewritten line on a terminal, plain lines otherwise; always on stderr. */
export function progressDisplay(stream: NodeJS.WriteStream): { update: (progress: RunProgress) => void; end: () => void } {
  let open = false;
  return {
    update(progress) {
      const line = `[${progress.done}${progress.total ? `/${progress.total}` : ''}] ${progress.message}`;
      if (stream.isTTY) {
        const width = stream.columns ? stream.columns - 1 : 120;
        stream.write(`\r\x1b[2K${line.slice(0, width)}`);
        open = true;
      } else {
        stream.write(line + '\n');
      }
    },
    end() {
      if (open) stream.write('\n');
      open = false;
    },
  };
}

/** Runs a command's work; a failure is one line on stderr and exit code 1, never a stack trace. */
export async function reportFailure(command: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    console.error(`parley ${command}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
