import { useEffect, useRef, useState, useSyncExternalStore, type CSSProperties } from 'react';
import { EMBED_PROVIDERS, isAllowedPlayer, type EmbedProvider } from '../../../contract/embeds';
import type { EmbedNode } from '../../../contract/markdown-tree';
import { CardPicture } from './card-picture';
import { ExternalLink } from './external-link';
import './card-link.css';
import './embed-card.css';

/**
 * How each provider's player is drawn: a video by its width over its height (the card's `aspect`
 * when the provider said it), anything else at a height its player fits, no wider than it is made
 * for. `verb` and `noun` name the button and, without a title, the card.
 */
interface FrameShape {
  verb: 'Play' | 'Show';
  noun: string;
  /** Width over height, for a player that scales with the column. */
  aspect?: number;
  /** Pixels, for a player of a fixed height. */
  height?: number;
  maxWidth?: number;
}

const FRAME_SHAPES: Record<EmbedProvider, FrameShape> = {
  youtube: { verb: 'Play', noun: 'video', aspect: 16 / 9 },
  vimeo: { verb: 'Play', noun: 'video', aspect: 16 / 9 },
  tiktok: { verb: 'Play', noun: 'video', height: 740, maxWidth: 340 },
  spotify: { verb: 'Play', noun: 'recording', height: 352 },
  soundcloud: { verb: 'Play', noun: 'recording', height: 166 },
  'apple-podcasts': { verb: 'Play', noun: 'episode', height: 175 },
  x: { verb: 'Show', noun: 'post', height: 560, maxWidth: 550 },
  bluesky: { verb: 'Show', noun: 'post', height: 480, maxWidth: 600 },
  instagram: { verb: 'Show', noun: 'post', height: 740, maxWidth: 540 },
  codepen: { verb: 'Show', noun: 'pen', height: 420 },
  mastodon: { verb: 'Show', noun: 'post' },
  gist: { verb: 'Show', noun: 'gist' },
};

/** The reading column's width on a wide screen (styles.css `--reading`), the page's below. */
const CARD_IMAGE_SIZES = '(min-width: 48rem) 42rem, calc(100vw - 2.5rem)';

const subscribeToNothing = () => () => {};

/**
 * False in the server's HTML and while the browser adopts it, true once the page runs: a button
 * that needs the page's script is drawn only when it works.
 */
const usePageRuns = () =>
  useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );

/**
 * A provider's post or player as a card of what the site stored of it (its thumbnail, an upload
 * of this site, and its title): a link to it on the provider's site, and, once the page runs and
 * when the provider has a player, a button that puts the player in its place. Nothing is asked of
 * the provider before that press.
 */
export function EmbedCard({ embed }: { embed: EmbedNode }) {
  const [playing, setPlaying] = useState(false);
  const runs = usePageRuns();
  const provider = EMBED_PROVIDERS[embed.provider].name;
  const shape = FRAME_SHAPES[embed.provider];
  const player =
    embed.player && isAllowedPlayer(embed.provider, embed.player) ? embed.player : null;
  const title = embed.title ?? `${provider} ${shape.noun}`;
  const source = embed.author ? `${embed.author} · ${provider}` : provider;
  const words = (
    <span className="embed__words">
      <span className="embed__title">{title}</span>
      <span className="embed__source">{source}</span>
    </span>
  );

  if (playing && player) {
    return (
      <figure className="embed embed--playing" data-provider={embed.provider}>
        <EmbedFrame
          provider={embed.provider}
          player={player}
          title={`${title} (${provider})`}
          aspect={embed.aspect}
        />
        <figcaption>
          <ExternalLink href={embed.url} className="embed__link">
            {words}
          </ExternalLink>
        </figcaption>
      </figure>
    );
  }

  // The picture's box, and the button's over it, have one shape before anything loads.
  const mediaStyle: CSSProperties = { aspectRatio: String(facadeAspect(embed, shape)) };
  return (
    <figure className="embed" data-provider={embed.provider}>
      <ExternalLink href={embed.url} className="embed__link">
        <span className="embed__media" style={mediaStyle}>
          {embed.thumbnail ? (
            <CardPicture image={embed.thumbnail} sizes={CARD_IMAGE_SIZES} />
          ) : (
            <span className="embed__placeholder" aria-hidden="true">
              {provider}
            </span>
          )}
        </span>
        {words}
      </ExternalLink>
      {runs && player && (
        <button
          type="button"
          className="embed__play"
          style={mediaStyle}
          onClick={() => setPlaying(true)}
        >
          <span className="embed__play-label">
            <span className="embed__play-icon" aria-hidden="true" />
            {shape.verb}
            <span className="visually-hidden"> {title}</span>{' '}
            <span className="embed__play-note">(loads {provider})</span>
          </span>
        </button>
      )}
    </figure>
  );
}

/**
 * The card's picture's width over its height: a video's player's, else the thumbnail's, never
 * taller than 4:3 (a square post's picture is cut to that), or a band for a post without one.
 */
function facadeAspect(embed: EmbedNode, shape: FrameShape): number {
  if (shape.aspect !== undefined) return embed.aspect ?? shape.aspect;
  const thumbnail = embed.thumbnail;
  return thumbnail ? Math.max(thumbnail.width / thumbnail.height, 4 / 3) : 3;
}

/**
 * The provider's player, which the reader asked for: it takes the keyboard's focus from the
 * button it replaced, and is told only this site's origin, never the page.
 */
export function EmbedFrame({
  provider,
  player,
  title,
  aspect,
}: {
  provider: EmbedProvider;
  player: string;
  title: string;
  aspect: number | null;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => frame.current?.focus(), []);
  const shape = FRAME_SHAPES[provider];
  const ratio = aspect ?? shape.aspect;
  const style: CSSProperties =
    ratio !== undefined
      ? { aspectRatio: String(ratio) }
      : { height: shape.height, maxWidth: shape.maxWidth };
  return (
    <iframe
      ref={frame}
      className="embed__frame"
      src={player}
      title={title}
      style={style}
      allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
      allowFullScreen
      referrerPolicy="strict-origin-when-cross-origin"
    />
  );
}
