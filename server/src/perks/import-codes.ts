import type { Services } from '../services.js';

/** The longest single-use code accepted. */
const MAX_CODE_LENGTH = 200;

export type ParsedCodes = { ok: true; codes: string[] } | { ok: false; problems: string[] };

/**
 * A file of single-use codes: one code per line, an optional `code` header, Windows or Unix line
 * ends. Blank lines, duplicates, lines with several columns and control characters are errors,
 * each named by its line number; nothing is imported from a file with any.
 */
export function parseCodes(text: string): ParsedCodes {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop(); // the final line end
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const codes: string[] = [];
  lines.forEach((raw, index) => {
    const line = index + 1;
    const code = raw.trim();
    if (index === 0 && code.toLowerCase() === 'code') return;
    if (code === '') problems.push(`line ${line}: is blank`);
    else if (/[,;\t]/.test(code)) problems.push(`line ${line}: holds more than one column`);
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    else if (/[\u0000-\u001f\u007f]/.test(code))
      problems.push(`line ${line}: has a control character`);
    else if (code.length > MAX_CODE_LENGTH) {
      problems.push(`line ${line}: is longer than ${MAX_CODE_LENGTH} characters`);
    } else if (seen.has(code)) {
      problems.push(`line ${line}: repeats the code on line ${seen.get(code)}`);
    } else {
      seen.set(code, line);
      codes.push(code);
    }
  });
  if (codes.length === 0 && problems.length === 0) problems.push('the file holds no codes');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, codes };
}

/** Adds the codes a perk's pool does not have yet: importing the same file twice adds nothing. */
export async function importCodes(
  { db }: Pick<Services, 'db'>,
  perkId: string,
  codes: readonly string[],
): Promise<{ added: number; alreadyThere: number }> {
  const { rowCount } = await db.pool.query(
    `INSERT INTO perk_codes ("perkId", code)
     SELECT $1, code FROM unnest($2::text[]) AS code
     ON CONFLICT ("perkId", code) DO NOTHING`,
    [perkId, codes],
  );
  const added = rowCount ?? 0;
  return { added, alreadyThere: codes.length - added };
}
