/**
 * How wide a line of text may render in a browser, for the Graphviz node boxes. Graphviz (WASM, no
 * fonts) sizes a node from its own Helvetica metrics, but the browser draws the label in whatever
 * font it has for Helvetica: on Linux often DejaVu Sans, about 15% wider, so text ran over its box.
 * The widths below are DejaVu Sans's own advances (ASCII 32-126, in thousandths of an em, read from
 * DejaVuSans.ttf's hmtx table): among the widest common sans fonts, so a box sized by them holds the
 * line in any of them.
 */
const ASCII = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
  1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
  500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
];

/** A few characters the reports draw often; anything else outside ASCII counts as a full em (CJK glyphs are). */
const OTHER: Record<string, number> = { '→': 838, '…': 1000, '×': 838, '–': 500, '—': 1000, '’': 318, '‘': 318, '“': 518, '”': 518 };

const LATIN = /\p{Script=Latin}/u;

/** The width of one line at `fontSize` (in the same unit as the size). */
export function lineWidth(line: string, fontSize: number): number {
  let thousandths = 0;
  for (const char of line) {
    const code = char.codePointAt(0)!;
    if (code >= 32 && code < 127) thousandths += ASCII[code - 32]!;
    // An accented Latin letter is about as wide as its base letter (at most an uppercase one's 0.78 em).
    else thousandths += OTHER[char] ?? (LATIN.test(char) ? 780 : 1000);
  }
  return (thousandths / 1000) * fontSize;
}
