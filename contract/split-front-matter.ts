import { parse } from 'yaml';

export type SplitResult =
  { ok: true; frontMatter: unknown; body: string } | { ok: false; message: string };

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Splits a content file (content/; read by the content build and by the server for perks) into its YAML front matter and its Markdown body. */
export function splitFrontMatter(text: string): SplitResult {
  const match = FRONT_MATTER.exec(text.replace(/^\uFEFF/, ''));
  if (!match)
    return { ok: false, message: 'the file must start with a --- front matter block ---' };
  try {
    const frontMatter: unknown = parse(match[1] ?? '');
    return { ok: true, frontMatter, body: text.slice(match[0].length) };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { ok: false, message: `invalid YAML: ${reason}` };
  }
}
