// The publisher's redirects that come with a Ghost export zip or folder (`redirects.json`, or
// `redirects.yaml` as Ghost 4+ keeps it in content/data/): found by the reader, then held to the
// same rules as the desk's Redirects page and added after the site's own. A file that breaks a
// rule is said in the report's notes and the rest of the import goes on.
import type pg from 'pg';
import type { RedirectFormat } from '../../../contract/redirects-api.js';
import { DomainError } from '../domain-error.js';
import { addImportedRedirects, requireValidRedirects } from '../redirects/redirect-store.js';
import type { Staff } from '../staff/staff.js';
import { decodeText, type ArchiveEntry, type ExportArchive } from './archive.js';
import type { SourceRedirects } from './source.js';

const REDIRECTS_FILE = /(^|\/)redirects\.(json|ya?ml)$/i;

/** Whether an export's entry is a redirects file (never the export's own JSON). */
export const isRedirectsFile = (path: string): boolean => REDIRECTS_FILE.test(path);

/** The export's redirects file, the one nearest its root; null when it has none. */
export async function readExportRedirects(
  archive: ExportArchive,
  maxBytes: number,
): Promise<SourceRedirects | null> {
  const found = [...archive.entries.values()]
    .filter(
      (entry: ArchiveEntry) => isRedirectsFile(entry.path) && !entry.path.startsWith('__MACOSX/'),
    )
    .sort(
      (a, b) => a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path),
    );
  const entry = found[0];
  if (!entry) return null;
  const format: RedirectFormat = entry.path.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
  return { name: entry.path, format, file: decodeText(await entry.read(maxBytes)) };
}

/**
 * Adds the export's redirects to the site's (a dry run only counts them) and answers the report's
 * note: how many were added, or why none were.
 */
export async function importRedirects(
  pool: pg.Pool,
  redirects: SourceRedirects,
  options: { dryRun: boolean; actor?: Pick<Staff, 'userId' | 'email'> },
): Promise<string> {
  try {
    const rules = requireValidRedirects(redirects.format, redirects.file);
    const { added, present } = await addImportedRedirects(
      pool,
      { format: redirects.format, file: redirects.file, rules },
      options,
    );
    const already = present > 0 ? ` (${present} already there)` : '';
    const verb = options.dryRun ? 'would be added' : 'added';
    return `${redirects.name}: ${added} ${added === 1 ? 'redirect' : 'redirects'} ${verb} to the site's${already}`;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return `${redirects.name}: not imported, ${error.message.replace(/^The redirects were not saved: /, '')}`;
  }
}
