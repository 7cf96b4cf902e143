import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { PostJson } from '../../../../contract/posts';
import type { SiteSection } from '../../../../contract/sections';
import {
  LIST_LAYOUTS,
  SETTINGS_LIMITS,
  type HomeSettings,
  type ListLayout,
} from '../../../../contract/site-settings';
import { fetchPosts } from './desk-api';
import { fetchHomeSettings, fetchPinnedPost, saveHomeSettings } from './home-page-api';
import homeCss from './home-page.css?inline';
import { OutcomeLines, type Outcome } from './outcome';
import { fetchSections } from './sections-api';
import { describeError, useDeskData } from './use-desk-data';

const LAYOUTS: Record<ListLayout, { name: string; about: string }> = {
  list: { name: 'List', about: 'One story a row, a small picture beside its words.' },
  grid: { name: 'Grid', about: 'Cards side by side, three a row on a wide screen.' },
  magazine: { name: 'Magazine', about: 'One lead story, large; the others smaller around it.' },
};

/** A pinned article as the page lists it. */
interface Pinned {
  id: number;
  title: string;
}

/**
 * /desk/home (owners): the home page's hero (or none), the sections it lists and their order, the
 * articles pinned above them and the layout of its lists (settings.home). Saved whole, shown on
 * the site at once.
 */
export function HomePage() {
  const [loaded] = useDeskData('home-page', async (signal) => {
    const [home, navigation] = await Promise.all([
      fetchHomeSettings(signal),
      fetchSections(signal),
    ]);
    // A pinned post gone since (deleted for good) is dropped here: saving leaves it out.
    const pinned = await Promise.all(
      home.featured.map((id) =>
        fetchPinnedPost(id, signal).then(
          (post): Pinned[] => [{ id: post.id, title: post.title }],
          () => [],
        ),
      ),
    );
    return { home, sections: navigation.sections, pinned: pinned.flat() };
  });
  return (
    <section aria-labelledby="home-page-title" className="desk-home">
      <style>{homeCss}</style>
      <h1 id="home-page-title">Home page</h1>
      <p className="desk__lede">
        What the site’s home page opens with, the articles pinned at its top, the sections it lists
        below them and how its lists look. Saved, it shows on the site at once.
      </p>
      {loaded.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {loaded.state === 'error' && <p role="alert">{describeError(loaded.error)}</p>}
      {loaded.state === 'ready' && <HomeForm {...loaded.data} />}
    </section>
  );
}

function HomeForm({
  home,
  sections,
  pinned,
}: {
  home: HomeSettings;
  sections: SiteSection[];
  pinned: Pinned[];
}) {
  const [heroOn, setHeroOn] = useState(home.hero !== null);
  const [heading, setHeading] = useState(home.hero?.heading ?? '');
  const [text, setText] = useState(home.hero?.text ?? '');
  const [buttonOn, setButtonOn] = useState(Boolean(home.hero?.button));
  const [label, setLabel] = useState(home.hero?.button?.label ?? '');
  const [href, setHref] = useState(home.hero?.button?.href ?? '');
  const inMenu = sections.filter((section) => section.inMenu).map((section) => section.slug);
  const [followMenu, setFollowMenu] = useState(home.sections === null);
  const [chosen, setChosen] = useState<string[]>(home.sections ?? inMenu);
  const [featured, setFeatured] = useState<Pinned[]>(pinned);
  const [layout, setLayout] = useState<ListLayout>(home.layout);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [saving, setSaving] = useState(false);
  const nameOf = new Map(sections.map((section) => [section.slug, section.name]));

  async function save(event: FormEvent) {
    event.preventDefault();
    setOutcome(null);
    setSaving(true);
    try {
      await saveHomeSettings({
        hero: heroOn ? { heading, text, button: buttonOn ? { label, href } : null } : null,
        sections: followMenu ? null : chosen,
        featured: featured.map((post) => post.id),
        layout,
      });
      setOutcome({ ok: true, text: 'Saved: the home page shows it now.' });
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="desk-home__form" onSubmit={(event) => void save(event)} aria-label="Home page">
      <fieldset className="desk-part">
        <legend>Hero</legend>
        <div className="desk-home__choices" role="radiogroup" aria-label="Hero">
          <label>
            <input type="radio" name="hero" checked={heroOn} onChange={() => setHeroOn(true)} /> A
            hero: a heading, its words and a button
          </label>
          <label>
            <input type="radio" name="hero" checked={!heroOn} onChange={() => setHeroOn(false)} />{' '}
            No hero: the page opens with its lists
          </label>
        </div>
        {heroOn && (
          <>
            <label className="desk-field">
              <span>Heading</span>
              <input
                value={heading}
                required
                maxLength={SETTINGS_LIMITS.heroHeading}
                onChange={(event) => setHeading(event.target.value)}
              />
            </label>
            <label className="desk-field">
              <span>Text</span>
              <textarea
                value={text}
                maxLength={SETTINGS_LIMITS.heroText}
                onChange={(event) => setText(event.target.value)}
              />
            </label>
            <label className="desk-home__check">
              <input
                type="checkbox"
                checked={buttonOn}
                onChange={(event) => setButtonOn(event.target.checked)}
              />{' '}
              A button
            </label>
            {buttonOn && (
              <div className="desk-home__fields">
                <label className="desk-field">
                  <span>Button label</span>
                  <input
                    value={label}
                    required
                    maxLength={SETTINGS_LIMITS.heroButtonLabel}
                    onChange={(event) => setLabel(event.target.value)}
                  />
                </label>
                <label className="desk-field">
                  <span>Button goes to</span>
                  <input
                    value={href}
                    required
                    placeholder="/early-access or https://…"
                    onChange={(event) => setHref(event.target.value)}
                  />
                </label>
              </div>
            )}
            <p className="desk__small">
              A button to /early-access, /gift or /pay-it-forward is hidden while payments are off.
            </p>
          </>
        )}
      </fieldset>

      <fieldset className="desk-part">
        <legend>Featured articles</legend>
        <p className="desk__small">
          Pinned first on the home page, in this order (at most {SETTINGS_LIMITS.featuredPosts}).
        </p>
        {featured.length === 0 ? (
          <p className="desk__empty">Nothing pinned.</p>
        ) : (
          <OrderedList
            label="Featured articles"
            items={featured.map((post) => ({ key: String(post.id), name: post.title }))}
            onChange={(keys) =>
              setFeatured(keys.flatMap((key) => featured.filter((post) => String(post.id) === key)))
            }
          />
        )}
        <PostPicker
          pinned={featured}
          full={featured.length >= SETTINGS_LIMITS.featuredPosts}
          onPin={(post) => setFeatured([...featured, post])}
        />
      </fieldset>

      <fieldset className="desk-part">
        <legend>Sections</legend>
        <label className="desk-home__check">
          <input
            type="checkbox"
            checked={followMenu}
            onChange={(event) => {
              setFollowMenu(event.target.checked);
              if (!event.target.checked && chosen.length === 0) setChosen(inMenu);
            }}
          />{' '}
          Every section in the menu, in the menu’s order (new sections too)
        </label>
        {followMenu ? (
          <p className="desk__small">
            Now: {inMenu.map((slug) => nameOf.get(slug)).join(', ') || 'no section is in the menu'}.
          </p>
        ) : (
          <>
            {chosen.length === 0 ? (
              <p className="desk__empty">No section on the home page.</p>
            ) : (
              <OrderedList
                label="Sections on the home page"
                items={chosen.map((slug) => ({ key: slug, name: nameOf.get(slug) ?? slug }))}
                onChange={setChosen}
              />
            )}
            <AddList
              label="Not on the home page"
              items={sections
                .filter((section) => !chosen.includes(section.slug))
                .map((section) => ({ key: section.slug, name: section.name }))}
              onAdd={(slug) => setChosen([...chosen, slug])}
            />
          </>
        )}
      </fieldset>

      <fieldset className="desk-part">
        <legend>Layout of the lists</legend>
        <div className="desk-home__layouts">
          {LIST_LAYOUTS.map((value) => (
            <label key={value} className="desk-home__layout">
              <input
                type="radio"
                name="layout"
                value={value}
                checked={layout === value}
                onChange={() => setLayout(value)}
              />
              <LayoutSketch layout={value} />
              <span className="desk-home__layout-name">{LAYOUTS[value].name}</span>
              <span className="desk__small">{LAYOUTS[value].about}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <p className="desk-home__save">
        <button className="button" type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>{' '}
        <a href="/">See the home page</a>
      </p>
      <OutcomeLines outcome={outcome} />
    </form>
  );
}

/** A small drawing of a layout: grey blocks as its cards would stand. */
function LayoutSketch({ layout }: { layout: ListLayout }) {
  const blocks = layout === 'list' ? 3 : layout === 'grid' ? 6 : 5;
  return (
    <span className={`desk-home__sketch desk-home__sketch--${layout}`} aria-hidden="true">
      {Array.from({ length: blocks }, (_, index) => (
        <span key={index} />
      ))}
    </span>
  );
}

interface Item {
  key: string;
  name: string;
}

/**
 * Items in an order the owner changes with buttons (up, down, remove), the focus staying on the
 * item moved, or going to the next one when one is removed.
 */
function OrderedList({
  label,
  items,
  onChange,
}: {
  label: string;
  items: Item[];
  onChange: (keys: string[]) => void;
}) {
  const list = useRef<HTMLOListElement>(null);
  const [focus, setFocus] = useState<{ key: string; action: string } | null>(null);
  useEffect(() => {
    if (!focus || !list.current) return;
    const own = [...list.current.querySelectorAll<HTMLButtonElement>('button')].filter(
      (button) => button.dataset.key === focus.key && !button.disabled,
    );
    (own.find((button) => button.dataset.action === focus.action) ?? own[0])?.focus();
    setFocus(null);
  }, [focus]);
  const keys = items.map((item) => item.key);
  const move = (index: number, by: -1 | 1) => {
    const moved = keys[index];
    if (moved === undefined) return;
    const next = keys.filter((_, at) => at !== index);
    next.splice(index + by, 0, moved);
    onChange(next);
    setFocus({ key: moved, action: by < 0 ? 'up' : 'down' });
  };
  const remove = (index: number) => {
    onChange(keys.filter((_, at) => at !== index));
    const neighbour = keys[index + 1] ?? keys[index - 1];
    if (neighbour) setFocus({ key: neighbour, action: 'remove' });
  };
  return (
    <ol className="desk-home__list" aria-label={label} ref={list}>
      {items.map((item, index) => (
        <li key={item.key}>
          <span className="desk-home__name">{item.name}</span>
          <span className="desk-home__buttons">
            <button
              className="button button--outline desk-home__move"
              type="button"
              data-key={item.key}
              data-action="up"
              disabled={index === 0}
              aria-label={`Move ${item.name} up`}
              onClick={() => move(index, -1)}
            >
              ↑
            </button>
            <button
              className="button button--outline desk-home__move"
              type="button"
              data-key={item.key}
              data-action="down"
              disabled={index === items.length - 1}
              aria-label={`Move ${item.name} down`}
              onClick={() => move(index, 1)}
            >
              ↓
            </button>
            <button
              className="button button--outline"
              type="button"
              data-key={item.key}
              data-action="remove"
              aria-label={`Remove ${item.name}`}
              onClick={() => remove(index)}
            >
              Remove
            </button>
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Sections not shown yet, each with a button that adds it at the end. */
function AddList({
  label,
  items,
  onAdd,
}: {
  label: string;
  items: Item[];
  onAdd: (key: string) => void;
}) {
  if (items.length === 0) return null;
  return (
    <>
      <h3 className="desk-home__subheading">{label}</h3>
      <ul className="desk-home__list" aria-label={label}>
        {items.map((item) => (
          <li key={item.key}>
            <span className="desk-home__name">{item.name}</span>
            <button
              className="button button--outline"
              type="button"
              aria-label={`Add ${item.name}`}
              onClick={() => onAdd(item.key)}
            >
              Add
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Finds published articles by their words (the desk's posts list), to pin one. */
function PostPicker({
  pinned,
  full,
  onPin,
}: {
  pinned: Pinned[];
  full: boolean;
  onPin: (post: Pinned) => void;
}) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<PostJson[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    // Each keystroke asks again; the answer to an older query is dropped.
    const controller = new AbortController();
    fetchPosts({ q: query, kind: 'article', status: 'published' }, null, controller.signal).then(
      (page) => {
        setFound(page.posts.slice(0, 8));
        setProblem(null);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setProblem(describeError(error));
      },
    );
    return () => controller.abort();
  }, [query]);
  const pinnedIds = new Set(pinned.map((post) => post.id));
  return (
    <div className="desk-home__picker">
      <label className="desk-field">
        <span>Find an article to pin</span>
        <input
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          // Enter searches (as typing does); it never saves the whole page.
          onKeyDown={(event: KeyboardEvent) => {
            if (event.key === 'Enter') event.preventDefault();
          }}
        />
      </label>
      {problem && <p role="alert">{problem}</p>}
      {found && (
        <ul className="desk-home__list" aria-label="Published articles found">
          {found.length === 0 && (
            <li className="desk__empty">No published article has these words.</li>
          )}
          {found.map((post) => (
            <li key={post.id}>
              <span className="desk-home__name">{post.title}</span>
              <button
                className="button button--outline"
                type="button"
                aria-label={`Pin ${post.title}`}
                disabled={full || pinnedIds.has(post.id)}
                onClick={() => onPin({ id: post.id, title: post.title })}
              >
                {pinnedIds.has(post.id) ? 'Pinned' : 'Pin'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
