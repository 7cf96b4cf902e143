import { MAX_POST_AUTHORS } from '../../../../../contract/authors';
import { fetchAuthors } from '../profile-api';
import { useLoadedOnce } from '../use-desk-data';
import authorsCss from './authors-field.css?inline';
import { TickList } from './tick-list';

/**
 * A post's authors (contract/authors.ts): the staff to credit, in the order they were ticked.
 * Until someone changes it, a new post is its writer's (`value` undefined: the server's default,
 * shown ticked here).
 */
export function AuthorsField({
  value,
  writerEmail,
  onChange,
}: {
  value: unknown;
  /** The signed-in staff member: a new post's author unless others are chosen. */
  writerEmail: string;
  onChange: (slugs: string[]) => void;
}) {
  const { data, problem } = useLoadedOnce('post-authors', (signal) => fetchAuthors(signal));
  const authors = data?.authors ?? null;

  const writer = authors?.find((author) => author.email === writerEmail);
  const chosen: string[] = Array.isArray(value)
    ? value.filter((slug): slug is string => typeof slug === 'string')
    : writer
      ? [writer.slug]
      : [];
  const toggle = (slug: string, on: boolean) => {
    const next = on ? [...chosen, slug] : chosen.filter((item) => item !== slug);
    // A post keeps at least one author: the last one cannot be unticked.
    if (next.length > 0 && next.length <= MAX_POST_AUTHORS) onChange(next);
  };
  const names = chosen.map((slug) => authors?.find((author) => author.slug === slug)?.name ?? slug);

  return (
    <fieldset className="desk-authors">
      <style>{authorsCss}</style>
      <legend>Authors</legend>
      <TickList
        items={authors}
        problem={problem}
        loading="Loading the staff…"
        noteClass="desk-authors__note"
        ticked={(author) => chosen.includes(author.slug)}
        fixed={(author) => chosen.length === 1 && chosen[0] === author.slug}
        onTick={(author, on) => toggle(author.slug, on)}
        labelOf={(author) => (
          <>
            {author.name} <span className="desk-authors__note">{author.role}</span>
          </>
        )}
      />
      {authors && (
        <p className="desk-authors__note">
          {names.length > 0
            ? `Byline: by ${joinNames(names)}, in the order ticked.`
            : 'Credited to nobody yet: tick who wrote it.'}
        </p>
      )}
    </fieldset>
  );
}

/** "A", "A and B", "A, B and C": names as a byline reads them. */
function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}
