import { formatDuration } from '../../../contract/media';
import type { MediaNode } from '../../../contract/markdown-tree';
import './media-player.css';

/**
 * An uploaded recording or video: its title and length above the browser's own player, which
 * fetches only the file's first bytes (its length, a video's first frame) until the reader
 * presses play; a browser without one offers the file to download.
 */
export function MediaPlayer({ media }: { media: MediaNode }) {
  const title = media.title || (media.type === 'audio' ? 'Recording' : 'Video');
  const extension = /\.(\w+)$/.exec(media.src)?.[1]?.toUpperCase();
  const fallback = (
    <a href={media.src} download>
      Download {title}
      {extension && ` (${extension})`}
    </a>
  );
  const source = <source src={media.src} type={media.mime} />;
  return (
    <figure className={`media media--${media.type}`}>
      <div className="media__head">
        <span className="media__title">{title}</span>
        {media.duration !== null && (
          <span className="media__duration">
            <span className="visually-hidden">Length: </span>
            <time dateTime={`PT${media.duration}S`}>{formatDuration(media.duration)}</time>
          </span>
        )}
      </div>
      {media.type === 'audio' ? (
        <audio controls preload="metadata" aria-label={title}>
          {source}
          {fallback}
        </audio>
      ) : (
        <video
          controls
          preload="metadata"
          aria-label={title}
          width={media.width ?? undefined}
          height={media.height ?? undefined}
        >
          {source}
          {fallback}
        </video>
      )}
      {media.caption && <figcaption>{media.caption}</figcaption>}
    </figure>
  );
}
