import { formatDate } from '../../../lib/format-date';
import { toneStyle, useSectionColor } from '../../../lib/site-navigation';
import type { Boycott } from '../types';
import type { ReactNode } from 'react';
import type { MarkdownTree } from '../../../../../contract/markdown-tree';
import type { PostLock } from '../../../../../contract/site-data';
import { ContentImage } from './content-image';
import { PostStory } from './post-story';
import { StatusBadge } from './status-badge';

/** A Collective Action boycott: status, why it began, what to support instead, what happened. */
export function BoycottCard({
  boycott,
  story,
  teaser = false,
  lock,
  comments,
}: {
  boycott: Boycott;
  /** The story behind it (its body), as this reader may read it. */
  story?: MarkdownTree | undefined;
  /** `story` is a restricted story's opening only. */
  teaser?: boolean;
  /** Who reads its story whole, where it is restricted (the screen's `locks`). */
  lock?: PostLock | undefined;
  /** What readers said of it, under the story (the comments feature's, given by the route). */
  comments?: ReactNode;
}) {
  const titleId = `${boycott.slug}-title`;
  return (
    <article
      className="boycott"
      id={boycott.slug}
      aria-labelledby={titleId}
      style={toneStyle(useSectionColor('boycotts'))}
    >
      <div className="boycott__lead">
        <ContentImage className="boycott__image" src={boycott.heroImage} />
        <div className="boycott__intro">
          <StatusBadge status={boycott.status} />
          {boycott.membersOnly && (
            <span className="members-badge">{boycott.readers ?? 'Members only'}</span>
          )}
          <h2 className="boycott__title" id={titleId}>
            {boycott.title}
          </h2>
          <dl className="boycott__facts">
            <dt>Reason:</dt>
            <dd>{boycott.reason}</dd>
          </dl>
        </div>
      </div>
      <dl className="boycott__facts boycott__details">
        <dt>Instead, Support:</dt>
        <dd>
          <strong className="boycott__alternative">{boycott.alternative.name}</strong>{' '}
          {boycott.alternative.description}
        </dd>
        <dt>Latest Updates:</dt>
        <dd>
          <ol className="timeline">
            {boycott.updates.map((update) => (
              <li key={update.date}>
                <time dateTime={update.date}>{formatDate(update.date)}</time>
                <p>{update.note}</p>
              </li>
            ))}
          </ol>
        </dd>
      </dl>
      {story && <PostStory body={story} teaser={teaser} lock={lock} />}
      {comments}
    </article>
  );
}
