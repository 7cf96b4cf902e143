import { useState, type InputHTMLAttributes } from 'react';
import { uploadImage } from './editor/post-api';
import { describeError } from './use-desk-data';

type InputAttributes = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange' | 'accept'>;

/**
 * Upload (or Replace) over a hidden file input: the chosen image goes to the desk's uploads and
 * its address to `onUploaded`; what refused it, in words, to `onFailed` (null as a new try starts).
 * The input takes the rest of the props (its id, name and description).
 */
export function ImageUploadButton({
  replacing,
  accept,
  onUploaded,
  onFailed,
  ...input
}: InputAttributes & {
  replacing: boolean;
  accept: string;
  onUploaded: (url: string) => void;
  onFailed: (message: string | null) => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <span className="button button--outline desk__small desk-upload">
      {busy ? 'Uploading…' : replacing ? 'Replace' : 'Upload'}
      <input
        {...input}
        type="file"
        accept={accept}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          setBusy(true);
          onFailed(null);
          uploadImage(file)
            .then((image) => onUploaded(image.url))
            .catch((error: unknown) => onFailed(describeError(error)))
            .finally(() => setBusy(false));
        }}
      />
    </span>
  );
}
