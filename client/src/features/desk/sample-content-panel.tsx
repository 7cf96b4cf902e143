import { useState } from 'react';
import { DESK_API } from '../../../../contract/constants';
import type { SampleCounts } from '../../../../contract/sample-content';
import { ApiError, apiRequest } from '../../lib/api-client';
import { ConfirmBox } from './confirm-box';
import { OutcomeLines, type Outcome } from './outcome';
import { describeError, useDeskData } from './use-desk-data';

// The sample content a new site started with (server/src/content/sample-content.ts): the owners'
// one offer to take it out, shown while any of it is left.

const fetchSamples = (signal: AbortSignal): Promise<{ remaining: SampleCounts }> =>
  apiRequest(`${DESK_API}/samples`, { signal });

const removeSamples = (): Promise<{ removed: SampleCounts }> =>
  apiRequest(`${DESK_API}/samples/remove`, { method: 'POST' });

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "12 posts, 8 perks and 4 sections": what the counts name, each only when there is some. */
function describeCounts({ posts, perks, sections }: SampleCounts): string {
  const parts = [
    posts > 0 && plural(posts, 'post', 'posts'),
    perks > 0 && plural(perks, 'perk', 'perks'),
    sections > 0 && plural(sections, 'section', 'sections'),
  ].filter((part): part is string => part !== false);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts.join('');
}

/**
 * "Remove the sample content", for owners: nothing for anyone else (the server answers them no),
 * nothing once the site has no samples left.
 */
export function SampleContentPanel() {
  const [samples, reload] = useDeskData('samples', fetchSamples);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  if (samples.state === 'loading') return null;
  if (samples.state === 'error') {
    // An editor's desk has no samples to remove: the server says so with a 403.
    if (samples.error instanceof ApiError && samples.error.status === 403) return null;
    return <p role="alert">{describeError(samples.error)}</p>;
  }
  const remaining = samples.data.remaining;
  const left = remaining.posts + remaining.perks + remaining.sections > 0;
  if (!left && !outcome) return null;

  async function remove() {
    setBusy(true);
    try {
      const { removed } = await removeSamples();
      const what = describeCounts(removed);
      setOutcome({
        ok: true,
        text: what ? `Removed ${what}.` : 'There was nothing left to remove.',
      });
      setConfirming(false);
      reload();
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="desk-section" aria-labelledby="samples-title">
      <h2 id="samples-title">Sample content</h2>
      {left && (
        <>
          <p>
            This site still has the sample content it started with: {describeCounts(remaining)}.
            Remove it once you are ready to start from your own.
          </p>
          {confirming ? (
            <ConfirmBox
              confirmLabel="Remove it now"
              busy={busy}
              onConfirm={() => void remove()}
              onCancel={() => setConfirming(false)}
            >
              This deletes every sample post (those you edited too), takes the sample perks off the
              site and deletes the sample sections none of your posts is in. Your own posts, the
              settings, members and payments stay. It cannot be undone.
            </ConfirmBox>
          ) : (
            <p>
              <button
                type="button"
                className="button button--outline"
                onClick={() => setConfirming(true)}
              >
                Remove the sample content
              </button>
            </p>
          )}
        </>
      )}
      <OutcomeLines outcome={outcome} />
    </section>
  );
}
