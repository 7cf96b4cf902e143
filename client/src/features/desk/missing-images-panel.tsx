import { useId, useState } from 'react';
import type { DeskImageRetry } from '../../../../contract/desk-api';
import { fetchMissingImages, retryMissingImages } from './missing-images-api';
import { describeError, useDeskData } from './use-desk-data';

type Retrying =
  | { state: 'idle' }
  | { state: 'busy' }
  | { state: 'done'; retry: DeskImageRetry }
  | { state: 'failed'; message: string };

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The images imported posts still show from their old addresses, as the posts say now (not as a
 * report said then), post by post, and "Try the missing images again": each fetched again, stored
 * here, and the posts that showed it pointed at this site's copy.
 */
export function MissingImagesPanel({ heading: Heading }: { heading: 'h3' | 'h4' }) {
  const [loaded] = useDeskData('missing-images', fetchMissingImages);
  const [retrying, setRetrying] = useState<Retrying>({ state: 'idle' });
  const stillId = useId();
  if (loaded.state === 'loading') return null;
  if (loaded.state === 'error') {
    return (
      <p role="alert" className="form-error">
        The missing images could not be counted: {describeError(loaded.error)}
      </p>
    );
  }
  const missing = retrying.state === 'done' ? retrying.retry.missing : loaded.data;
  const tryAgain = () => {
    setRetrying({ state: 'busy' });
    retryMissingImages().then(
      (retry) => setRetrying({ state: 'done', retry }),
      (error: unknown) => setRetrying({ state: 'failed', message: describeError(error) }),
    );
  };
  return (
    <div className="desk-import__missing">
      <Heading>Images still missing</Heading>
      <p role="status">
        {retrying.state === 'done' &&
          `Fetched ${count(retrying.retry.fetched, 'image')}, ${count(retrying.retry.postsUpdated, 'post')} updated. `}
        {missing.count === 0
          ? 'None: every post shows its images from this site.'
          : `${count(missing.count, 'image')} in ${count(missing.posts.length, 'post')} still shown from the old site's address.`}
      </p>
      {missing.count > 0 && (
        <>
          <ul className="desk-import__list">
            {missing.posts.map((post) => (
              <li key={post.id}>
                <strong>{post.title}</strong>:{' '}
                {post.urls.map((url, index) => (
                  <span key={url}>
                    {index > 0 && ', '}
                    <span className="desk-import__file">{url}</span>
                  </span>
                ))}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="button button--outline"
            disabled={retrying.state === 'busy'}
            onClick={tryAgain}
          >
            {retrying.state === 'busy'
              ? 'Trying the missing images…'
              : 'Try the missing images again'}
          </button>
        </>
      )}
      {retrying.state === 'done' && retrying.retry.notFetched.length > 0 && (
        <>
          <p id={stillId} className="desk__note">
            Still not fetched, each with why:
          </p>
          <ul className="desk-import__list" aria-labelledby={stillId}>
            {retrying.retry.notFetched.map((each) => (
              <li key={each.url}>
                <span className="desk-import__file">{each.url}</span>: {each.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {retrying.state === 'failed' && (
        <p role="alert" className="form-error">
          {retrying.message}
        </p>
      )}
    </div>
  );
}
