import { NodeViewWrapper, type ReactNodeViewProps } from '@tiptap/react';
import { EMBED_PROVIDERS, embedProviderOf } from '../../../../../contract/embeds';

export interface EmbedCardOptions {
  /** What the server read of an address (its title), when the editor was given it. */
  cardTitle: (url: string) => string | null;
}

/** What a card is called in the editor: its provider's name, else a link card. */
export function cardLabelOf(url: string): string {
  const provider = embedProviderOf(url);
  return provider ? EMBED_PROVIDERS[provider].name : 'Link card';
}

/**
 * A card in the body as the editor draws it: its provider, its title when the server has read
 * one, and the address, which is what the Markdown holds. No player and no thumbnail from the
 * provider: the desk asks no third party for anything.
 */
export function EmbedCardView({ node, extension }: ReactNodeViewProps) {
  const url = typeof node.attrs.url === 'string' ? node.attrs.url : '';
  const options = extension.options as EmbedCardOptions;
  const title = options.cardTitle(url);
  const label = cardLabelOf(url);
  return (
    <NodeViewWrapper
      as="figure"
      className="editor__card"
      data-embed-card={url}
      aria-label={`${label}: ${url}`}
      data-drag-handle=""
    >
      <span className="editor__card-provider">{label}</span>
      {title && <span className="editor__card-title">{title}</span>}
      <span className="editor__card-url">{url}</span>
    </NodeViewWrapper>
  );
}
