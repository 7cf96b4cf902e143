import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { DeskStaff, DeskTopic } from '../../../../contract/desk-api';
import type { PostTierChoice } from '../../../../contract/post-editor-fields';
import {
  TRASH_DAYS,
  type BulkBody,
  type BulkResult,
  type BulkSelection,
} from '../../../../contract/post-bulk';
import type { SiteSection } from '../../../../contract/sections';
import { ConfirmBox } from './confirm-box';
import { fetchTopics } from './desk-api';
import { actOnPosts } from './posts-bulk-api';
import { fetchPostTiers, READER_CHOICES, withTier } from './post-tiers';
import { fetchSections } from './sections-api';
import { describeError } from './use-desk-data';

/** The actions that ask for a field first, each with its button's words. */
type Asking = 'move' | 'addTopic' | 'removeTopic' | 'visibility';
/** The actions that ask to be confirmed. */
type Confirming = 'unpublish' | 'delete' | 'restore';

const ASKING_LABELS: Record<Asking, string> = {
  move: 'Move to section…',
  addTopic: 'Add topic…',
  removeTopic: 'Remove topic…',
  visibility: 'Who may read…',
};

const posts = (count: number) => (count === 1 ? '1 post' : `${count} posts`);

/**
 * The posts list's bulk actions on what is selected: Unpublish and Delete (each confirmed first;
 * deleted posts go to the Trash for TRASH_DAYS), Move to section, Add and Remove a topic, Who may
 * read; in the Trash, Restore. Each button shows only to those whose role may take it; the server
 * skips, with the reason, any post its rules keep from the action.
 */
export function PostsBulkBar({
  staff,
  trash,
  selection,
  count,
  onDone,
}: {
  staff: DeskStaff;
  /** The Trash is shown: restoring is all there is to do. */
  trash: boolean;
  selection: BulkSelection;
  count: number;
  /** The action ended: its result, or the error that stopped it. */
  onDone: (result: BulkResult | Error) => void;
}) {
  const [asking, setAsking] = useState<Asking | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement | null>(null);
  const mayPublish = staff.role !== 'writer';
  const isOwner = staff.role === 'owner';

  function open(event: { currentTarget: HTMLButtonElement }, action: Asking | Confirming) {
    opener.current = event.currentTarget;
    if (action in ASKING_LABELS) {
      setConfirming(null);
      setAsking(action as Asking);
    } else {
      setAsking(null);
      setConfirming(action as Confirming);
    }
  }

  function close() {
    setAsking(null);
    setConfirming(null);
    opener.current?.focus();
  }

  async function run(action: BulkBody) {
    setBusy(true);
    try {
      onDone(await actOnPosts(action));
    } catch (error) {
      onDone(error instanceof Error ? error : new Error(String(error)));
    } finally {
      setBusy(false);
      setAsking(null);
      setConfirming(null);
    }
  }

  const confirmText: Record<Confirming, string> = {
    unpublish: `Take ${posts(count)} off the site? Their addresses will answer “gone”.`,
    delete: `Delete ${posts(count)}? They go to the Trash for ${TRASH_DAYS} days, where an owner can restore them; after that they are deleted for good.`,
    restore: `Restore ${posts(count)} from the Trash? Each comes back as it was: a published post is published again at its address.`,
  };
  const confirmLabel: Record<Confirming, string> = {
    unpublish: 'Yes, unpublish',
    delete: 'Yes, move to the Trash',
    restore: 'Yes, restore',
  };

  return (
    <div className="posts-bulk" role="group" aria-label="Act on the selected posts">
      <p className="posts-bulk__count" aria-live="polite">
        {posts(count)} selected
      </p>
      <p className="button-row posts-bulk__buttons">
        {trash ? (
          isOwner ? (
            <button
              type="button"
              className="button button--outline"
              onClick={(event) => open(event, 'restore')}
            >
              Restore
            </button>
          ) : (
            'Only owners restore posts from the Trash.'
          )
        ) : (
          <>
            {mayPublish && (
              <button
                type="button"
                className="button button--outline"
                onClick={(event) => open(event, 'unpublish')}
              >
                Unpublish
              </button>
            )}
            {isOwner && (
              <button
                type="button"
                className="button button--outline"
                onClick={(event) => open(event, 'delete')}
              >
                Delete
              </button>
            )}
            {(Object.keys(ASKING_LABELS) as Asking[]).map((action) => (
              <button
                key={action}
                type="button"
                className="button button--outline"
                aria-expanded={asking === action}
                onClick={(event) => open(event, action)}
              >
                {ASKING_LABELS[action]}
              </button>
            ))}
          </>
        )}
      </p>
      {confirming && (
        <ConfirmBox
          confirmLabel={confirmLabel[confirming]}
          busy={busy}
          onConfirm={() => void run({ ...selection, action: confirming })}
          onCancel={close}
        >
          {confirmText[confirming]}
        </ConfirmBox>
      )}
      {asking && (
        <AskForm
          key={asking}
          asking={asking}
          count={count}
          busy={busy}
          onCancel={close}
          onSubmit={(fields) => void run({ ...selection, ...fields } as BulkBody)}
        />
      )}
    </div>
  );
}

/** The one field an action asks for (a section, a topic, who may read), then its button. */
function AskForm({
  asking,
  count,
  busy,
  onCancel,
  onSubmit,
}: {
  asking: Asking;
  count: number;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (fields: Record<string, string | string[]>) => void;
}) {
  const id = useId();
  const [value, setValue] = useState(asking === 'visibility' ? 'members' : '');
  // Who may read, for chosen tiers: the tiers ticked, of every tier.
  const [tiers, setTiers] = useState<PostTierChoice[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [sections, setSections] = useState<SiteSection[] | null>(null);
  const [topics, setTopics] = useState<DeskTopic[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    if (asking === 'move') {
      fetchSections(controller.signal).then(
        ({ sections: all }) => {
          const articles = all.filter((section) => section.lists === 'articles');
          setSections(articles);
          setValue((now) => now || (articles[0]?.slug ?? ''));
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setProblem(describeError(error));
        },
      );
    }
    if (asking === 'visibility') {
      fetchPostTiers(controller.signal).then(
        ({ tiers: all }) => setTiers(all),
        (error: unknown) => {
          if (!controller.signal.aborted) setProblem(describeError(error));
        },
      );
    }
    if (asking === 'addTopic' || asking === 'removeTopic') {
      // The topics offered as the field is typed in; any other name makes a new one.
      fetchTopics(controller.signal).then(
        ({ topics: all }) => setTopics(all),
        () => {},
      );
    }
    return () => controller.abort();
  }, [asking]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (value.trim() === '') {
      setProblem(asking === 'move' ? 'Choose a section.' : 'Name a topic.');
      return;
    }
    if (asking === 'visibility') {
      if (value === 'tiers' && chosen.length === 0) {
        setProblem('Tick at least one tier.');
        return;
      }
      onSubmit({ action: asking, visibility: value, ...(value === 'tiers' && { tiers: chosen }) });
      return;
    }
    const field = asking === 'move' ? 'section' : 'topic';
    onSubmit({ action: asking, [field]: value.trim() });
  }

  const labels: Record<Asking, [string, string]> = {
    move: ['Section of articles', `Move ${posts(count)}`],
    addTopic: ['Topic to add', `Add to ${posts(count)}`],
    removeTopic: ['Topic to remove', `Remove from ${posts(count)}`],
    visibility: ['Who may read them', `Apply to ${posts(count)}`],
  };
  const [label, button] = labels[asking];

  return (
    <form className="posts-bulk__ask" onSubmit={submit} aria-label={ASKING_LABELS[asking]}>
      <label className="desk-field">
        <span>{label}</span>
        {asking === 'move' ? (
          <select
            value={value}
            onChange={(event) => setValue(event.target.value)}
            // The field the button opened: the next thing to do.
            autoFocus
          >
            {!sections && <option value="">Loading…</option>}
            {sections?.map((section) => (
              <option key={section.slug} value={section.slug}>
                {section.name}
              </option>
            ))}
          </select>
        ) : asking === 'visibility' ? (
          <select value={value} onChange={(event) => setValue(event.target.value)} autoFocus>
            {READER_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        ) : (
          <>
            <input
              value={value}
              onChange={(event) => setValue(event.target.value)}
              list={`${id}-topics`}
              autoComplete="off"
              maxLength={40}
              autoFocus
            />
            <datalist id={`${id}-topics`}>
              {topics.map((topic) => (
                <option key={topic.slug} value={topic.name} />
              ))}
            </datalist>
          </>
        )}
      </label>
      {asking === 'visibility' && value === 'tiers' && tiers && (
        <fieldset className="posts-bulk__tiers">
          <legend>Tiers</legend>
          {tiers.map((tier) => (
            <label key={tier.slug}>
              <input
                type="checkbox"
                checked={chosen.includes(tier.slug)}
                onChange={(event) =>
                  setChosen(withTier(chosen, tier.slug, event.target.checked, tiers))
                }
              />{' '}
              {tier.name}
            </label>
          ))}
        </fieldset>
      )}
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
      <p className="button-row">
        <button className="button button--accent" disabled={busy}>
          {button}
        </button>
        <button type="button" className="button button--outline" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </form>
  );
}

/**
 * What a bulk action came to, said above the list: "Done: N; skipped: M", then each post skipped
 * (by its title when the page shows it) with the reason.
 */
export function BulkOutcome({
  result,
  titles,
}: {
  result: BulkResult;
  titles: ReadonlyMap<number, string>;
}) {
  const shown = result.skipped.slice(0, 20);
  return (
    <div className="posts-bulk__outcome">
      <p className="desk__done">
        Done: {result.done}; skipped: {result.skipped.length}.
      </p>
      {shown.length > 0 && (
        <ul>
          {shown.map(({ id, reason }) => (
            <li key={id}>
              <strong>{titles.has(id) ? `“${titles.get(id)}”` : `Post ${id}`}</strong>: {reason}
            </li>
          ))}
          {result.skipped.length > shown.length && (
            <li>…and {result.skipped.length - shown.length} more.</li>
          )}
        </ul>
      )}
    </div>
  );
}
