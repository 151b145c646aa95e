/**
 * Control characters a model may put in its words, made visible. A reply written raw to a terminal can
 * drive it (ESC c resets it, ESC ] sets its title, backspace and CR overwrite what was shown), and a
 * bidi override makes a Markdown line read other than it is. Every place parley writes text out (the
 * CLI's output, Markdown and HTML files, report resources) passes it through `visibleControls`.
 *
 * Each one becomes its escape, `\u001b`, so the record stays faithful and JSON stays JSON: C0 but
 * newline and tab, DEL, C1 (U+0080-U+009F, where CSI and OSC have one-character forms) and the
 * embedding, override and isolate bidi controls. A CR ending a line (CRLF) is a line end and goes.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function visibleControls(text: string): string {
  return text.replace(CONTROL, (c) => (c === '\r\n' ? '\n' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

