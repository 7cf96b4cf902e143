import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConfirmByButton } from './confirm-by-button';

/** Fails the test if the page confirmed anything by being opened. */
const neverOnOpen = (): Promise<{ message: string }> => {
  throw new Error('opening the page confirmed something');
};

const page = (token: string | null) =>
  renderToStaticMarkup(
    <ConfirmByButton
      token={token}
      prompt="Press the button to start getting the newsletter at this address."
      button="Confirm my subscription"
      confirm={neverOnOpen}
      noToken={<p>This page needs the link from the confirmation mail.</p>}
    />,
  );

describe('a page that confirms a mailed link by its button', () => {
  it('opened from the link, asks for the press and confirms nothing yet (mail scanners open links)', () => {
    expect(page('abc')).toBe(
      '<p>Press the button to start getting the newsletter at this address.</p>' +
        '<button type="button" class="button button--accent">Confirm my subscription</button>',
    );
  });

  it('opened without the link’s token, says where to get one, with no button to press', () => {
    expect(page(null)).toBe('<p>This page needs the link from the confirmation mail.</p>');
  });
});
