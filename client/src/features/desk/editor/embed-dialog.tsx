import { useId, useState } from 'react';
import { cardAddressOf, embedProviderOf } from '../../../../../contract/embeds';
import { AddressField, EditorDialog } from './editor-dialog';
import { cardLabelOf } from './embed-card-view';

/** What is wrong with an address typed for a card, or null when it makes one. */
export function embedAddressProblem(typed: string): string | null {
  if (typed.trim() === '') return 'Paste or type the address of the video, post or page.';
  if (cardAddressOf(typed)) return null;
  return /\s/.test(typed.trim())
    ? 'Type one address, without spaces, starting with https://.'
    : 'Type a whole address starting with https://, such as https://www.youtube.com/watch?v=….';
}

/**
 * The Embed dialog (the toolbar's Embed, or `/embed` then Enter): one address, shown in the post
 * as a card (a video, a post or a page), and which card it will be as the writer types.
 */
export function EmbedDialog({
  onInsert,
  onCancel,
}: {
  onInsert: (url: string) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const url = cardAddressOf(typed);
  return (
    <EditorDialog labelledBy={titleId} className="editor-dialog--small" onClose={onCancel}>
      <form
        className="editor-dialog__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const wrong = embedAddressProblem(typed);
          if (wrong || !url) {
            setProblem(wrong);
            return;
          }
          onInsert(url);
        }}
      >
        <h2 id={titleId}>Embed a video, post or page</h2>
        <AddressField
          value={typed}
          placeholder="https://…"
          invalid={problem !== null}
          describedBy={`${titleId}-${problem ? 'problem' : 'kind'}`}
          onType={(value) => {
            setTyped(value);
            setProblem(null);
          }}
        />
        {problem ? (
          <p id={`${titleId}-problem`} className="form-error" role="alert">
            {problem}
          </p>
        ) : (
          <p id={`${titleId}-kind`} className="desk__small">
            {url
              ? embedProviderOf(url)
                ? `${cardLabelOf(url)}: its player loads only when a reader asks for it.`
                : 'A link card: the page’s title and picture, when the site can read them; else a link.'
              : 'YouTube, Vimeo, X, Bluesky, Spotify, SoundCloud and more show their player when a reader asks; any other page shows as a link card.'}
          </p>
        )}
        <p className="button-row">
          <button type="submit" className="button button--accent">
            Embed
          </button>
          <button type="button" className="button button--outline" onClick={onCancel}>
            Cancel
          </button>
        </p>
      </form>
    </EditorDialog>
  );
}
