import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PostJson } from '../../../../../contract/posts';
import { describeReaders, withTier } from '../post-tiers';
import { changesOf, emptyForm, formOf, type PostForm } from './post-form';
import { ReadersField, readersChange } from './readers-field';

// The editor's "Who can read it": four choices, the tiers to tick for the last, and what the form
// sends the server for each.

const TIERS = [
  { slug: 'supporter', name: 'Supporter', visible: true },
  { slug: 'founder', name: 'Founder', visible: true },
  { slug: 'patron', name: 'Patron', visible: false },
];

const drawn = (form: Parameters<typeof ReadersField>[0]['form']) =>
  renderToStaticMarkup(
    <ReadersField form={form} tiers={TIERS} problem={null} onChange={() => {}} />,
  );

describe('the editor’s “Who can read it”', () => {
  it('offers the four choices, the tiers to tick only for chosen tiers', () => {
    const everyone = drawn({ visibility: 'public', tiers: [] });
    expect(everyone.match(/type="radio"/g)).toHaveLength(4);
    for (const label of [
      'Everyone',
      'Signed-in readers',
      'Paying members (any tier)',
      'Chosen tiers',
    ]) {
      expect(everyone).toContain(`>${label}</label>`);
    }
    expect(everyone).toMatch(/checked="" value="public"/);
    expect(everyone).not.toContain('type="checkbox"');
    expect(everyone).not.toContain('Members only from here');

    const founders = drawn({ visibility: 'tiers', tiers: ['founder'] });
    expect(founders).toMatch(/checked="" value="tiers"/);
    expect(founders.match(/type="checkbox"/g)).toHaveLength(3);
    expect(founders).toMatch(/<input type="checkbox" checked=""\/> Founder/);
    expect(founders).toMatch(/<input type="checkbox"\/> Supporter/);
    expect(founders).toContain('Patron (not on sale)');
    expect(founders).toContain('Members only from here');
    expect(founders).not.toContain('Tick at least one tier.');
    expect(drawn({ visibility: 'tiers', tiers: [] })).toContain('Tick at least one tier.');
  });

  it('sends the tiers only with chosen tiers, in the tiers’ order, and drops them for another choice', () => {
    const form = { ...emptyForm('article'), title: 'For founders' };
    const ticked = withTier(withTier([], 'patron', true, TIERS), 'founder', true, TIERS);
    expect(ticked).toEqual(['founder', 'patron']);
    expect(changesOf({ ...form, visibility: 'tiers', tiers: ticked }, 'article')).toMatchObject({
      visibility: 'tiers',
      tiers: ['founder', 'patron'],
    });
    expect(withTier(ticked, 'founder', false, TIERS)).toEqual(['patron']);

    const forTiers: PostForm = { ...form, visibility: 'tiers', tiers: ticked };
    const members = { ...forTiers, ...readersChange('members') };
    expect(members.tiers).toEqual([]);
    expect(changesOf(members, 'article')).toMatchObject({ visibility: 'members', tiers: [] });
    expect(
      formOf({ visibility: 'tiers', tiers: ['founder'], title: 'x' } as PostJson),
    ).toMatchObject({ visibility: 'tiers', tiers: ['founder'], fields: {} });
  });

  it('names who may read a post in a few words, a tier by its name', () => {
    expect(describeReaders({ visibility: 'public' }, TIERS)).toBe('Everyone');
    expect(describeReaders({ visibility: 'registered' }, TIERS)).toBe('Signed-in readers');
    expect(describeReaders({ visibility: 'members' }, TIERS)).toBe('Paying members');
    expect(describeReaders({ visibility: 'tiers', tiers: ['founder'] }, TIERS)).toBe('Founder');
    expect(
      describeReaders({ visibility: 'tiers', tiers: ['supporter', 'founder', 'patron'] }, TIERS),
    ).toBe('Supporter, Founder or Patron');
    // Before the names load, by slug.
    expect(describeReaders({ visibility: 'tiers', tiers: ['founder'] }, null)).toBe('founder');
  });
});
