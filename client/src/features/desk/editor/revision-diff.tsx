import type { PostJson } from '../../../../../contract/posts';
import { diffLines, foldUnchanged } from './line-diff';
import { KIND_FIELDS } from '../../../../../contract/post-editor-fields';
import { describeReaders } from '../post-tiers';
import { fieldValue } from './post-form';

/** A field that differs between an earlier version and the post now, as the editor labels it. */
export interface FieldChange {
  label: string;
  before: string;
  after: string;
}

/** A field's value in words: a list by commas, a row list as its entries, nothing as "(empty)". */
function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) {
    return value.length === 0
      ? '(empty)'
      : value
          .map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item)))
          .join(', ');
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number);
}

/** Every field but the body that an earlier version had otherwise than the post has now. */
export function fieldChanges(before: PostJson, after: PostJson): FieldChange[] {
  const compared: [label: string, read: (post: PostJson) => unknown][] = [
    ['Title', (post) => post.title],
    ['Address', (post) => post.path],
    ['Who can read it', (post) => describeReaders(post, null)],
    ...KIND_FIELDS[after.kind].map((spec): [string, (post: PostJson) => unknown] => [
      spec.label,
      (post) => fieldValue(post, spec.name),
    ]),
    ['Feature image', (post) => post.featureImage],
    ['Feature image alt text', (post) => post.featureImageAlt],
    ['SEO title', (post) => post.seoTitle],
    ['SEO description', (post) => post.seoDescription],
  ];
  return compared.flatMap(([label, read]) => {
    const was = shown(read(before));
    const now = shown(read(after));
    return was === now ? [] : [{ label, before: was, after: now }];
  });
}

/**
 * An earlier version beside the post now: the fields that differ, then the body as a line diff
 * (removed lines struck through and marked −, added ones marked +, long unchanged runs folded).
 */
export function RevisionDiff({ revision, current }: { revision: PostJson; current: PostJson }) {
  const fields = fieldChanges(revision, current);
  const body = foldUnchanged(diffLines(revision.body, current.body));
  const bodyChanged = body.some((part) => part.change === 'removed' || part.change === 'added');
  return (
    <div
      className="revision-diff"
      role="region"
      aria-label={`Version ${revision.version} against now`}
    >
      {fields.length === 0 && !bodyChanged && (
        <p className="desk__small">The same as the post now.</p>
      )}
      {fields.length > 0 && (
        <dl className="revision-diff__fields">
          {fields.map((change) => (
            <div key={change.label}>
              <dt>{change.label}</dt>
              <dd>
                <del>{change.before}</del> → <ins>{change.after}</ins>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {bodyChanged && (
        <pre className="revision-diff__body" aria-label="Body: then and now">
          {body.map((part, index) =>
            part.change === 'folded' ? (
              <span key={index} className="revision-diff__folded">
                {`⋯ ${part.lines} unchanged line${part.lines === 1 ? '' : 's'}\n`}
              </span>
            ) : part.change === 'same' ? (
              <span key={index}>{`  ${part.text}\n`}</span>
            ) : part.change === 'removed' ? (
              <del key={index}>{`− ${part.text}\n`}</del>
            ) : (
              <ins key={index}>{`+ ${part.text}\n`}</ins>
            ),
          )}
        </pre>
      )}
    </div>
  );
}
