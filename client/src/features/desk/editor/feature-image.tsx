import { useState } from 'react';
import { uploadImage } from './post-api';
import type { PostForm } from './post-form';

/**
 * An article's feature image: uploaded here (it becomes the page's hero and its cards' picture, in
 * several widths), with the alt text publishing needs.
 */
export function FeatureImage({
  src,
  alt,
  onChange,
  onError,
}: {
  src: string;
  alt: string;
  onChange: (patch: Pick<PostForm, 'featureImage' | 'featureImageAlt'>) => void;
  onError: (message: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <fieldset className="post-editor__feature">
      <legend>Feature image</legend>
      {src ? (
        <img src={src} alt="" className="post-editor__feature-preview" width={320} height={180} />
      ) : (
        <p className="desk__small">None: the page shows artwork drawn from its address.</p>
      )}
      <p className="button-row">
        <label className="button button--outline">
          {busy ? 'Uploading…' : src ? 'Replace' : 'Upload'}
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            aria-label="Upload feature image"
            className="visually-hidden"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (!file) return;
              setBusy(true);
              uploadImage(file)
                .then((image) => onChange({ featureImage: image.url, featureImageAlt: alt }))
                .catch((error: unknown) =>
                  onError(error instanceof Error ? error.message : 'The upload failed.'),
                )
                .finally(() => setBusy(false));
            }}
          />
        </label>
        {src && (
          <button
            type="button"
            className="button button--outline"
            onClick={() => onChange({ featureImage: '', featureImageAlt: '' })}
          >
            Remove
          </button>
        )}
      </p>
      {src && (
        <label className="desk-field">
          <span>Feature image alt text</span>
          <input
            value={alt}
            onChange={(event) =>
              onChange({ featureImage: src, featureImageAlt: event.target.value })
            }
          />
        </label>
      )}
    </fieldset>
  );
}
