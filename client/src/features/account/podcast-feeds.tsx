import { useState } from 'react';
import type { MemberPodcastFeed } from '../../../../contract/podcast-feeds';
import { describeFailure } from '../../lib/api-client';
import { useLoadOnMount } from '../../lib/use-load-on-mount';
import { useRequest } from '../../lib/use-request';
import { listPodcastFeeds, makePodcastFeed } from './account-api';

/**
 * A member's own feed of each of the site's podcasts, with the members' episodes too: the address
 * to give a podcast app, made when first asked for, made anew when it went where it should not
 * (the old one then stops). Nothing when the site has no podcast.
 */
export function PodcastFeeds() {
  const [feeds, setFeeds] = useState<MemberPodcastFeed[] | null>(null);
  const { problem, setProblem, busy, run } = useRequest();

  useLoadOnMount(
    listPodcastFeeds,
    (answer) => setFeeds(answer.feeds),
    (error) => setProblem(describeFailure(error, 'Could not load your podcast feeds.')),
  );

  const make = (sectionId: number) =>
    run(
      () => makePodcastFeed(sectionId),
      ({ feed }) =>
        setFeeds((all) => all?.map((each) => (each.sectionId === sectionId ? feed : each)) ?? null),
    );

  if (feeds?.length === 0 || (!feeds && !problem)) return null;
  return (
    <section className="panel" aria-labelledby="podcast-feeds-title">
      <h2 id="podcast-feeds-title">Your podcast feeds</h2>
      <p>
        Your own feed of each podcast, with the episodes for members. Add its address to your
        podcast app (in Apple Podcasts: Library, then “Follow a Show by URL”). Keep it to yourself:
        it works for anyone who has it, until you make a new one or your membership ends.
      </p>
      <ul className="podcast-feeds">
        {feeds?.map((feed) => (
          <PodcastFeed key={feed.sectionId} feed={feed} busy={busy} onMake={make} />
        ))}
      </ul>
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
    </section>
  );
}

function PodcastFeed({
  feed,
  busy,
  onMake,
}: {
  feed: MemberPodcastFeed;
  busy: boolean;
  onMake: (sectionId: number) => Promise<void>;
}) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const [replacing, setReplacing] = useState(false);
  const fieldId = `podcast-feed-${feed.sectionId}`;

  async function copy(address: string) {
    try {
      await navigator.clipboard.writeText(address);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  if (!feed.address) {
    return (
      <li className="podcast-feed">
        <span className="podcast-feed__name">{feed.name}</span>
        <p>
          <button
            type="button"
            className="button button--accent"
            disabled={busy}
            onClick={() => void onMake(feed.sectionId)}
          >
            Get my feed address
          </button>
        </p>
      </li>
    );
  }
  const { address } = feed;
  return (
    <li className="podcast-feed">
      <label className="podcast-feed__name" htmlFor={fieldId}>
        {feed.name}
      </label>
      <input
        id={fieldId}
        className="podcast-feed__address"
        readOnly
        value={address}
        onFocus={(event) => event.target.select()}
      />
      <p className="podcast-feed__actions">
        <button type="button" className="button" onClick={() => void copy(address)}>
          Copy
        </button>
        <button
          type="button"
          className="button button--outline"
          disabled={busy}
          aria-expanded={replacing}
          onClick={() => setReplacing(true)}
        >
          Make a new address
        </button>
        <span role="status" className="podcast-feed__copied">
          {copied === true ? 'Copied' : copied === false ? 'Select the address to copy it' : ''}
        </span>
      </p>
      {replacing && (
        <div className="podcast-feed__confirm" role="group" aria-label="Make a new address">
          <p>
            The address you have stops working: every app that has it stops getting episodes until
            you give it the new one.
          </p>
          <p className="podcast-feed__actions">
            <button
              type="button"
              className="button button--accent"
              disabled={busy}
              onClick={() => {
                setReplacing(false);
                setCopied(null);
                void onMake(feed.sectionId);
              }}
            >
              Make a new address
            </button>
            <button
              type="button"
              className="button button--outline"
              onClick={() => setReplacing(false)}
            >
              Keep this one
            </button>
          </p>
        </div>
      )}
    </li>
  );
}
