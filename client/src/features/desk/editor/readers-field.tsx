import { useId } from 'react';
import type { PostTierChoice } from '../../../../../contract/post-editor-fields';
import type { PostVisibility } from '../../../../../contract/posts';
import { fetchPostTiers, READER_CHOICES, withTier } from '../post-tiers';
import { useLoadedOnce } from '../use-desk-data';
import type { PostForm } from './post-form';
import readersCss from './readers-field.css?inline';
import { TickList } from './tick-list';

/** The tiers a post may be for, loaded once for the editor; null while they load. */
export function usePostTiers(): { tiers: PostTierChoice[] | null; problem: string | null } {
  const { data, problem } = useLoadedOnce('post-tiers', (signal) => fetchPostTiers(signal));
  return { tiers: data?.tiers ?? null, problem };
}

/**
 * The form's change for another choice of readers: a visibility other than `tiers` has none, and
 * "Chosen tiers" starts from none ticked.
 */
export const readersChange = (
  visibility: PostVisibility,
): Pick<PostForm, 'visibility' | 'tiers'> => ({ visibility, tiers: [] });

/**
 * "Who can read it": everyone, signed-in readers (free members too), any paying member, or the
 * members of the tiers ticked (contract/reading.ts). Those it keeps out read up to the "Members
 * only from here" line.
 */
export function ReadersField({
  form,
  tiers,
  problem,
  onChange,
}: {
  form: Pick<PostForm, 'visibility' | 'tiers'>;
  /** Every tier, in order (null while they load). */
  tiers: readonly PostTierChoice[] | null;
  problem: string | null;
  onChange: (change: Pick<PostForm, 'visibility' | 'tiers'>) => void;
}) {
  const name = useId();
  // A form kept in this browser before tiers has none.
  const chosen = Array.isArray(form.tiers) ? form.tiers : [];
  return (
    <fieldset className="desk-readers">
      <style>{readersCss}</style>
      <legend>Who can read it</legend>
      {READER_CHOICES.map((choice) => {
        const id = `${name}-${choice.value}`;
        return (
          <div key={choice.value} className="desk-readers__choice">
            <input
              id={id}
              type="radio"
              name={name}
              value={choice.value}
              checked={form.visibility === choice.value}
              aria-describedby={`${id}-hint`}
              onChange={() => {
                if (form.visibility !== choice.value) onChange(readersChange(choice.value));
              }}
            />
            <span>
              <label htmlFor={id}>{choice.label}</label>
              <span id={`${id}-hint`} className="desk-readers__hint">
                {choice.hint}
              </span>
            </span>
          </div>
        );
      })}
      {form.visibility === 'tiers' && (
        <fieldset className="desk-readers__tiers">
          <legend>Tiers</legend>
          <TickList
            items={tiers}
            problem={problem}
            loading="Loading the tiers…"
            noteClass="desk-readers__hint"
            ticked={(tier) => chosen.includes(tier.slug)}
            onTick={(tier, on) =>
              onChange({ visibility: 'tiers', tiers: withTier(chosen, tier.slug, on, tiers ?? []) })
            }
            labelOf={(tier) => (tier.visible ? tier.name : `${tier.name} (not on sale)`)}
          />
          {tiers && chosen.length === 0 && (
            <p className="desk-readers__hint" role="status">
              Tick at least one tier.
            </p>
          )}
        </fieldset>
      )}
      {form.visibility !== 'public' && (
        <p className="desk-readers__hint">
          Others read up to the “Members only from here” line (without one, the title and summary).
        </p>
      )}
    </fieldset>
  );
}
