import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DeskTable } from './desk-table';

const row = (
  <tr>
    <td>a@example.com</td>
  </tr>
);

describe('a desk table', () => {
  it('scrolls in a box of its own, with a last column for row actions named only for screen readers', () => {
    expect(
      renderToStaticMarkup(
        <DeskTable caption="Unclaimed gifts, newest first" columns={['Recipient', 'Paid']} actions>
          {row}
        </DeskTable>,
      ),
    ).toBe(
      '<div class="desk-scroll"><table class="desk-table">' +
        '<caption>Unclaimed gifts, newest first</caption>' +
        '<thead><tr><th scope="col">Recipient</th><th scope="col">Paid</th>' +
        '<th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>' +
        '<tbody><tr><td>a@example.com</td></tr></tbody></table></div>',
    );
  });

  it('as cards, has no scroll box, and leaves out the columns this staff member does not get', () => {
    const mayPublish = false;
    expect(
      renderToStaticMarkup(
        <DeskTable
          cards
          caption="Posts"
          captionHidden
          columns={['Title', mayPublish && 'Publishing']}
        >
          {row}
        </DeskTable>,
      ),
    ).toBe(
      '<table class="desk-table desk-table--cards">' +
        '<caption class="visually-hidden">Posts</caption>' +
        '<thead><tr><th scope="col">Title</th></tr></thead>' +
        '<tbody><tr><td>a@example.com</td></tr></tbody></table>',
    );
  });

  it('of figures, says so to the stylesheet, which aligns its cells right', () => {
    expect(
      renderToStaticMarkup(
        <DeskTable numbers caption="Weeks" columns={['Week of', 'New']}>
          <tr>
            <th scope="row">1 Dec</th>
            <td>3</td>
          </tr>
        </DeskTable>,
      ),
    ).toBe(
      '<div class="desk-scroll"><table class="desk-table desk-table--numbers">' +
        '<caption>Weeks</caption>' +
        '<thead><tr><th scope="col">Week of</th><th scope="col">New</th></tr></thead>' +
        '<tbody><tr><th scope="row">1 Dec</th><td>3</td></tr></tbody></table></div>',
    );
  });
});
