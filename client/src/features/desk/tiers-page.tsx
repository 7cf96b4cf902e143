import { useState, type FormEvent } from 'react';
import type { DeskStaff } from '../../../../contract/desk-api';
import { tierSlugOf, type DeskTier, type TierChange } from '../../../../contract/tiers';
import { ConfirmBox } from './confirm-box';
import { LoadedView } from './loaded-view';
import { OutcomeLines, useListOutcome, type RowReport } from './outcome';
import { AddForm, OrderedRows, RowActions, run, type ListRowProps } from './sections-parts';
import {
  draftOf,
  EMPTY_DRAFT,
  pricesLabel,
  readDraft,
  TierFields,
  type TierDraft,
  type TierValues,
} from './tier-fields';
import { changeTier, createTier, deleteTier, fetchTiers } from './tiers-api';
import tiersCss from './tiers-page.css?inline';
import { useDeskData } from './use-desk-data';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * /desk/tiers: what members can join, in the order readers see them, each with its words and its
 * own prices. Owners add, change, move, hide and delete them (one that members hold or posts name
 * stays: hide it instead); editors see them. Every change shows on the site at once.
 */
export function TiersPage({ staff }: { staff: DeskStaff }) {
  const [tiers, reload] = useDeskData('tiers', (signal) => fetchTiers(signal));
  const { outcome, report } = useListOutcome(reload);
  const mayChange = staff.role === 'owner' && staff.canChange;
  return (
    <section aria-labelledby="tiers-title" className="desk-tiers">
      <style>{tiersCss}</style>
      <h1 id="tiers-title">Tiers</h1>
      <p className="desk__lede">
        What members can join, in the order readers see them. Each tier has its own prices, and a
        post can be for some tiers’ members only. A tier that members hold or posts name cannot be
        deleted: hide it instead.
      </p>
      {tiers.state === 'ready' && tiers.data.paymentsOff && (
        <p className="desk-plans__off" role="status">
          {tiers.data.paymentsOff}
        </p>
      )}
      <OutcomeLines outcome={outcome} />
      <LoadedView data={tiers}>
        {({ tiers: list }) => (
          <>
            <OrderedRows
              className="desk-topics"
              label="Tiers"
              items={list}
              keyOf={(tier) => `${tier.slug}-${tier.order}-${tier.updatedAt}`}
              row={(tier, place) => (
                <TierRow tier={tier} {...place} mayChange={mayChange} report={report} />
              )}
            />
            {mayChange && <NewTier currency={staff.currency} report={report} />}
          </>
        )}
      </LoadedView>
    </section>
  );
}

/** The fields that differ from the tier's, as the server takes a change (null: none). */
function changeOf(tier: DeskTier, values: TierValues): TierChange | null {
  const samePrices = (['monthly', 'yearly', 'once'] as const).every(
    (key) => values.prices[key] === tier.prices[key],
  );
  const change: TierChange = {
    ...(values.name !== tier.name && { name: values.name }),
    ...(values.slug !== tier.slug && { slug: values.slug }),
    ...(values.description !== tier.description && { description: values.description }),
    ...(values.benefits.join('\n') !== tier.benefits.join('\n') && { benefits: values.benefits }),
    ...(!samePrices && { prices: values.prices }),
    ...(values.trialDays !== tier.trialDays && { trialDays: values.trialDays }),
    ...(values.visible !== tier.visible && { visible: values.visible }),
  };
  return Object.keys(change).length > 0 ? change : null;
}

function TierRow({ tier, first, last, mayChange, report }: ListRowProps & { tier: DeskTier }) {
  const [draft, setDraft] = useState<TierDraft>(() => draftOf(tier));
  const [confirming, setConfirming] = useState(false);
  const id = `tier-${tier.slug}`;

  function save(event: FormEvent) {
    event.preventDefault();
    const read = readDraft(draft, tier.currency);
    if (!read.ok) {
      report.done({ ok: false, text: `${tier.name}: ${read.problem}` });
      return;
    }
    const change = changeOf(tier, read.values);
    if (!change) {
      report.done({ ok: true, text: `${tier.name}: nothing to change.` });
      return;
    }
    void run(report, `Saved ${read.values.name}.`, () => changeTier(tier.slug, change));
  }

  return (
    <form className="desk-topic" onSubmit={save} aria-labelledby={`${id}-name`}>
      <h2 id={`${id}-name`} className="desk-topic__name">
        {tier.name}{' '}
        <span className="desk-tiers__meta">
          {tier.visible ? 'offered to readers' : 'hidden'} ·{' '}
          {count(tier.members, 'member', 'members')} · {count(tier.posts, 'post', 'posts')}
        </span>
      </h2>
      <p className="desk-plan__about">
        {pricesLabel(tier.prices, tier.currency)}
        {tier.trialDays > 0 && `; subscriptions start with ${tier.trialDays} days free`}.
      </p>
      <TierFields
        draft={draft}
        onChange={setDraft}
        currency={tier.currency}
        readOnly={!mayChange}
      />
      {mayChange && (
        <RowActions
          label={tier.name}
          place={{ first, last }}
          onMove={(by) =>
            void run(report, `Moved ${tier.name}.`, () =>
              changeTier(tier.slug, { order: tier.order + by }),
            )
          }
        >
          <button
            className="button button--outline"
            type="button"
            aria-expanded={confirming}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        </RowActions>
      )}
      {confirming && (
        <ConfirmBox
          confirmLabel={`Delete ${tier.name}`}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void run(report, `Deleted ${tier.name}.`, () => deleteTier(tier.slug));
          }}
        >
          Delete the tier {tier.name} and its prices? A tier that members hold, held before, or that
          posts, gifts or offers name is kept.
        </ConfirmBox>
      )}
    </form>
  );
}

function NewTier({ currency, report }: { currency: string; report: RowReport }) {
  const [draft, setDraft] = useState<TierDraft>(EMPTY_DRAFT);

  function add(event: FormEvent) {
    event.preventDefault();
    const read = readDraft(draft, currency);
    if (!read.ok) {
      report.done({ ok: false, text: read.problem });
      return;
    }
    const { slug, ...values } = read.values;
    void run(report, `Added ${values.name}.`, async () => {
      await createTier({ ...values, ...(slug !== '' && { slug }) });
      setDraft(EMPTY_DRAFT);
    });
  }

  return (
    <AddForm title="Add a tier" onSubmit={add} submit="Add tier">
      <TierFields
        draft={draft}
        onChange={setDraft}
        currency={currency}
        readOnly={false}
        slugHint={draft.name.trim() === '' ? 'founder' : tierSlugOf(draft.name)}
      />
    </AddForm>
  );
}
