import { describe, expect, it } from 'vitest';
import { readGhostJson } from './ghost.js';

// Which members of a Ghost export agreed to the newsletter: a Ghost 5 export keeps it as rows of
// `members_newsletters`, earlier ones (and Cohort's own) as each member's `subscribed`.

const exportOf = (data: Record<string, unknown[]>) =>
  JSON.stringify({ db: [{ meta: { version: '5.80.0' }, data: { posts: [], ...data } }] });

const consentOf = (json: string) =>
  Object.fromEntries(readGhostJson(json).members.map((m) => [m.email, m.subscribed]));

describe('a Ghost export’s newsletter consent', () => {
  it('reads Ghost 5’s members_newsletters: a member without a row there did not agree', () => {
    const json = exportOf({
      members: [
        { id: 'm1', email: 'gets@example.com', status: 'free' },
        { id: 'm2', email: 'left@example.com', status: 'free' },
      ],
      members_newsletters: [{ id: 'l1', member_id: 'm1', newsletter_id: 'n1' }],
    });
    expect(consentOf(json)).toEqual({ 'gets@example.com': true, 'left@example.com': false });
  });

  it('reads `subscribed` where a member has it, whatever else the export holds', () => {
    const json = exportOf({
      members: [
        { id: 'm1', email: 'yes@example.com', subscribed: true },
        { id: 'm2', email: 'no@example.com', subscribed: false },
      ],
      members_newsletters: [{ id: 'l1', member_id: 'm2', newsletter_id: 'n1' }],
    });
    expect(consentOf(json)).toEqual({ 'yes@example.com': true, 'no@example.com': false });
  });
});
