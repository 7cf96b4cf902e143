import { useEffect, useState } from 'react';
import { MAX_POST_AUTHORS, type DeskAuthor } from '../../../../../contract/authors';
import { fetchAuthors } from '../profile-api';
import { describeError } from '../use-desk-data';
import authorsCss from './authors-field.css?inline';

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
  const [authors, setAuthors] = useState<DeskAuthor[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchAuthors(controller.signal).then(
      (answer) => setAuthors(answer.authors),
      (error: unknown) => {
        if (!controller.signal.aborted) setProblem(describeError(error));
      },
    );
    return () => controller.abort();
  }, []);

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
      {problem && <p role="alert">{problem}</p>}
      {!authors && !problem && <p className="desk-authors__note">Loading the staff…</p>}
      {authors && (
        <>
          <ul role="list">
            {authors.map((author) => (
              <li key={author.slug}>
                <label className="desk-check">
                  <input
                    type="checkbox"
                    checked={chosen.includes(author.slug)}
                    disabled={chosen.length === 1 && chosen[0] === author.slug}
                    onChange={(event) => toggle(author.slug, event.target.checked)}
                  />{' '}
                  {author.name} <span className="desk-authors__note">{author.role}</span>
                </label>
              </li>
            ))}
          </ul>
          <p className="desk-authors__note">
            {names.length > 0
              ? `Byline: by ${joinNames(names)}, in the order ticked.`
              : 'Credited to nobody yet: tick who wrote it.'}
          </p>
        </>
      )}
    </fieldset>
  );
}

/** "A", "A and B", "A, B and C": names as a byline reads them. */
function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}
