import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  MAX_QUERY_LENGTH,
  normalizeQuery,
  SEARCH_API,
  type ExcerptPart,
  type SearchResult,
  type SearchResults,
} from '../../../../contract/search';
import { PageMasthead } from '../../components/page-masthead';
import { paths } from '../../config/paths';
import { apiRequest, describeFailure } from '../../lib/api-client';
import { useDocumentHead } from '../../lib/document-head';
import { formatDate } from '../../lib/format-date';
import { Link, useLocation, useNavigate, useNavigationType } from '../../lib/router';
import { useSiteData } from '../../lib/site-data';

/** How long typing may pause before the words typed so far are searched. */
const TYPING_PAUSE_MS = 250;

type Shown = SearchResults & { error?: string };

const queryOf = (search: string) => new URLSearchParams(search).get('q') ?? '';

/**
 * /search?q=: a GET form, whose results the server draws into the page (it works without
 * scripts); with them, it searches as the reader types, a moment after each pause, dropping an
 * answer that a newer query has overtaken, and says how many it found to screen readers.
 */
export default function SearchRoute() {
  const { search: drawn } = useSiteData();
  const location = useLocation();
  const navigate = useNavigate();
  const navigationType = useNavigationType();
  const addressQuery = queryOf(location.search);
  const [text, setText] = useState(addressQuery);
  // What the server drew is this address's answer only (the same path keeps its data); a query
  // it refused is drawn as sent.
  const [shown, setShown] = useState<Shown | null>(() =>
    drawn &&
    (drawn.error ? drawn.query === addressQuery : drawn.query === normalizeQuery(addressQuery))
      ? drawn
      : null,
  );
  const [busy, setBusy] = useState(false);
  /** The query whose answer is shown (or on its way to the screen). */
  const answered = useRef<string | null>(shown?.query ?? null);
  const asked = useRef<AbortController | null>(null);
  const statusId = useId();

  useDocumentHead(
    shown?.query ? `Search: ${shown.query}` : 'Search',
    'Search every article, campaign, boycott and resource on the site.',
  );

  async function run(raw: string) {
    asked.current?.abort();
    setBusy(false);
    const query = normalizeQuery(raw);
    if (query === null) {
      setShown({
        query: raw,
        results: [],
        error: `Search for at most ${MAX_QUERY_LENGTH} characters: a few words find more.`,
      });
      return;
    }
    if (query === '') {
      answered.current = null;
      setShown(null);
      if (queryOf(window.location.search) !== '') navigate(paths.search, { replace: true });
      return;
    }
    const controller = new AbortController();
    asked.current = controller;
    setBusy(true);
    try {
      const answer = await apiRequest<SearchResults>(
        `${SEARCH_API}?${new URLSearchParams({ q: query }).toString()}`,
        { signal: controller.signal },
      );
      if (controller.signal.aborted) return;
      answered.current = answer.query;
      setShown(answer);
      navigate(`${paths.search}?${new URLSearchParams({ q: query }).toString()}`, {
        replace: true,
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      setShown({
        query,
        results: [],
        error: describeFailure(error, 'The search did not answer: try again.'),
      });
    } finally {
      if (asked.current === controller) setBusy(false);
    }
  }

  // A new address (Back, Forward, a link followed here): its query in the box, unless the box
  // already says the same (keeping what the reader typed, a space at its end too). The address
  // this page replaces as answers arrive is not one: the reader may have typed on since.
  const [seenAddress, setSeenAddress] = useState(addressQuery);
  if (seenAddress !== addressQuery) {
    setSeenAddress(addressQuery);
    if (navigationType !== 'REPLACE' && normalizeQuery(text) !== normalizeQuery(addressQuery)) {
      setText(addressQuery);
    }
  }

  // The address's query, when no answer for it is shown yet.
  useEffect(() => {
    const query = normalizeQuery(addressQuery);
    if (query !== null && query !== '' && answered.current === query) return;
    void run(addressQuery);
    // Only a new address asks again (`run` is this render's, and reads nothing stale).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [addressQuery]);

  // As the reader types: once they pause.
  useEffect(() => {
    if (normalizeQuery(text) === (shown?.query ?? '')) return;
    const timer = setTimeout(() => void run(text), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  useEffect(() => () => asked.current?.abort(), []);

  function submit(event: FormEvent) {
    event.preventDefault();
    void run(text);
  }

  const count = shown?.results.length ?? 0;
  return (
    <>
      <PageMasthead
        eyebrow="Search"
        title="Search"
        lede="Articles, campaigns, boycotts, resources and newsletter issues."
      />
      <div className="page-body search-page">
        <form className="search-form" role="search" action={paths.search} onSubmit={submit}>
          <label htmlFor="search-q">Search for</label>
          <div className="search-form__row">
            <input
              id="search-q"
              name="q"
              type="search"
              value={text}
              maxLength={MAX_QUERY_LENGTH * 2}
              autoComplete="off"
              enterKeyHint="search"
              aria-describedby={statusId}
              // The page is for searching: its box is where the reader starts.
              autoFocus={addressQuery === ''}
              onChange={(event) => setText(event.target.value)}
            />
            <button className="button" type="submit">
              Search
            </button>
          </div>
        </form>
        <p id={statusId} className="search-page__status" role="status" aria-live="polite">
          {shown?.error ??
            (shown && !busy
              ? count === 0
                ? `Nothing found for “${shown.query}”. Try fewer or other words.`
                : `${count === 1 ? 'One result' : `${count} results`} for “${shown.query}”`
              : '')}
        </p>
        {shown && count > 0 && (
          <ol className="search-results" role="list" aria-busy={busy}>
            {shown.results.map((result) => (
              <SearchResultItem key={result.id} result={result} />
            ))}
          </ol>
        )}
      </div>
    </>
  );
}

function SearchResultItem({ result }: { result: SearchResult }) {
  // An item of a list (`/collective#slug`): a whole page load, so the browser finds its place.
  const link = result.path.includes('#') ? (
    <a href={result.path}>{result.title}</a>
  ) : (
    <Link to={result.path}>{result.title}</Link>
  );
  return (
    <li className="search-result">
      <p className="search-result__meta">
        <span>{result.section}</span>
        {result.publishedAt && (
          <>
            <span aria-hidden="true"> · </span>
            <time dateTime={result.publishedAt}>{formatDate(result.publishedAt)}</time>
          </>
        )}
        {result.membersOnly && (
          <span className="members-badge">
            {result.rule?.visibility === 'members' || !result.unlock
              ? 'Members only'
              : result.unlock}
          </span>
        )}
      </p>
      <h2 className="search-result__title">{link}</h2>
      <p className="search-result__excerpt">
        <Excerpt parts={result.excerpt} />
      </p>
    </li>
  );
}

function Excerpt({ parts }: { parts: ExcerptPart[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </>
  );
}
