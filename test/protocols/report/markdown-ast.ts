import MarkdownIt from 'markdown-it';

/**
 * Reads Markdown as a CommonMark renderer does (markdown-it, raw HTML allowed so that any that got
 * through would show), so a test can say what a report really renders: its headings, links, HTML,
 * code blocks and list items.
 */
const md = new MarkdownIt({ html: true });
type Token = ReturnType<typeof md.parse>[number];

export function parse(markdown: string): Token[] {
  return md.parse(markdown, {});
}

const inline = (tokens: Token[]) => tokens.flatMap((t) => [t, ...(t.children ?? [])]);

export function headings(markdown: string): string[] {
  const tokens = parse(markdown);
  return tokens.flatMap((t, i) => (t.type === 'heading_open' ? [`${t.markup} ${tokens[i + 1]?.content ?? ''}`] : []));
}

/** Links, images and raw HTML anywhere: what escaped text must never make. */
export function active(markdown: string): string[] {
  return inline(parse(markdown))
    .filter((t) => ['link_open', 'image', 'html_block', 'html_inline'].includes(t.type))
    .map((t) => `${t.type}: ${t.content || t.attrGet('href') || ''}`);
}

export function codeBlocks(markdown: string): { info: string; content: string }[] {
  return parse(markdown)
    .filter((t) => t.type === 'fence' || t.type === 'code_block')
    .map((t) => ({ info: t.info, content: t.content }));
}

/** Code spans: inline code a report must not let a string open. */
export function codeSpans(markdown: string): string[] {
  return inline(parse(markdown))
    .filter((t) => t.type === 'code_inline')
    .map((t) => t.content);
}

/** What an inline run reads as: its text, line breaks as newlines, emphasis marks gone. */
function rendered(token: Token | undefined): string {
  return (token?.children ?? []).map((c) => (c.type === 'softbreak' || c.type === 'hardbreak' ? '\n' : c.content)).join('');
}

/** The top-level list items, each as the rendered text of its first paragraph. */
export function topItems(markdown: string): string[] {
  const tokens = parse(markdown);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'list_item_open' && t.level === 1) out.push(rendered(tokens.slice(i).find((x) => x.type === 'inline')));
  }
  return out;
}
