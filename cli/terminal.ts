import { redact } from '../schemas/secrets.js';
import { visibleControls } from '../schemas/visible-controls.js';

/**
 * What parley prints for a person: known secrets scrubbed, control characters made visible (a
 * model's reply quoted in a report or an error must not drive the terminal). Every line the CLI
 * prints goes through here; the live lines write their own cursor controls around text that does.
 */
export const forTerminal = (text: string): string => visibleControls(redact(text));

export function printOut(text: string): void {
  process.stdout.write(forTerminal(text));
}

/** One line on stderr. */
export function printErr(line: string): void {
  process.stderr.write(`${forTerminal(line)}\n`);
}
