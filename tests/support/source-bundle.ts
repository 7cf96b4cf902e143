import type { SourceBundle, SourcePost } from '../../server/src/imports/source.js';

/** The post a platform's reader found whose `field` is `value`; the test fails here if none is. */
export function postWhere<Field extends keyof SourcePost>(
  bundle: SourceBundle,
  field: Field,
  value: SourcePost[Field],
): SourcePost {
  const found = bundle.posts.find((candidate) => candidate[field] === value);
  if (!found) throw new Error(`no post with ${field} ${String(value)}`);
  return found;
}
