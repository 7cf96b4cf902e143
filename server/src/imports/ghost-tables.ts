// The rows of a Ghost export's tables as the Ghost reader (ghost.ts, ghost-tiers.ts) reads them:
// values of any type, read as text, ids and flags; rows by id, and join rows by one column.

export type Row = Record<string, unknown>;
export type Tables = Record<string, Row[]>;

export function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as text: a non-blank string or a number; undefined for anything else. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

export function id(value: unknown): string {
  return text(value) ?? '';
}

export function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

export function byId(rows: Row[] | undefined): Map<string, Row> {
  return new Map((rows ?? []).map((row) => [id(row.id), row]));
}

/** Join rows (posts_tags, posts_authors…) grouped by one column, in their sort order. */
export function groupBy(rows: Row[] | undefined, key: string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows ?? []) {
    const group = groups.get(id(row[key])) ?? [];
    group.push(row);
    groups.set(id(row[key]), group);
  }
  for (const group of groups.values()) {
    group.sort((a, b) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0));
  }
  return groups;
}
