import type pg from 'pg';
import type { LinkChange, LinkCreate } from '../../../contract/sections-api.js';
import type { SiteLink } from '../../../contract/sections.js';
import type { Staff } from '../staff/staff.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { auditContentChange } from './content-changes.js';
import { findNulCharacter, NUL_MESSAGE } from './find-nul.js';

/**
 * The links the navbar and the footer show besides the sections (docs/publishing.md, "Sections and the menu"), changed by owners
 * from the desk: each change audited and signalled to the site in one transaction.
 */

type Actor = Pick<Staff, 'userId' | 'email'>;

const LINK_COLUMNS = `"id", "label", "address", "placement", "position"`;

export interface LinkResult {
  link: SiteLink;
  generation: number;
}

/** A new link, last of its placement. */
export async function createLink(
  pool: pg.Pool,
  actor: Actor,
  input: LinkCreate,
): Promise<LinkResult> {
  const label = cleanLabel(input.label);
  return withTransaction(pool, async (tx) => {
    await lockLinks(tx);
    const { rows } = await tx.query<SiteLink>(
      `INSERT INTO "site_links" ("label", "address", "placement", "position")
        VALUES ($1, $2, $3,
          (SELECT coalesce(max("position"), 0) + 1 FROM "site_links" WHERE "placement" = $3))
        RETURNING ${LINK_COLUMNS}`,
      [label, input.address, input.placement],
    );
    const link = rows[0];
    if (!link) throw new Error('INSERT … RETURNING answered no row');
    const generation = await auditContentChange(tx, actor, {
      action: 'link_create',
      before: null,
      after: link,
    });
    return { link, generation };
  });
}

/** Relabels, readdresses, moves (`position` within its placement) or re-places a link. */
export async function changeLink(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  change: LinkChange,
): Promise<LinkResult> {
  const label = change.label === undefined ? undefined : cleanLabel(change.label);
  return withTransaction(pool, async (tx) => {
    await lockLinks(tx);
    const before = await linkById(tx, id);
    const placement = change.placement ?? before.placement;
    await tx.query(
      `UPDATE "site_links" SET "label" = $2, "address" = $3, "placement" = $4, "updatedAt" = now()
        WHERE "id" = $1`,
      [id, label ?? before.label, change.address ?? before.address, placement],
    );
    const order = (await idsOf(tx, placement)).filter((each) => each !== id);
    const position =
      change.position ?? (placement === before.placement ? before.position : order.length + 1);
    order.splice(Math.min(position, order.length + 1) - 1, 0, id);
    await renumber(tx, order);
    if (placement !== before.placement) await renumber(tx, await idsOf(tx, before.placement));
    const link = await linkById(tx, id);
    const generation = await auditContentChange(tx, actor, {
      action: 'link_change',
      before,
      after: link,
    });
    return { link, generation };
  });
}

export async function deleteLink(pool: pg.Pool, actor: Actor, id: number): Promise<number> {
  return withTransaction(pool, async (tx) => {
    await lockLinks(tx);
    const link = await linkById(tx, id);
    await tx.query(`DELETE FROM "site_links" WHERE "id" = $1`, [id]);
    await renumber(tx, await idsOf(tx, link.placement));
    return auditContentChange(tx, actor, { action: 'link_delete', before: link, after: null });
  });
}

async function lockLinks(tx: Tx) {
  await tx.query(`LOCK TABLE "site_links" IN SHARE ROW EXCLUSIVE MODE`);
}

async function linkById(tx: Tx, id: number): Promise<SiteLink> {
  const { rows } = await tx.query<SiteLink>(
    `SELECT ${LINK_COLUMNS} FROM "site_links" WHERE "id" = $1`,
    [id],
  );
  const link = rows[0];
  if (!link) throw new DomainError(404, 'not_found', `No link ${id}.`);
  return link;
}

async function idsOf(tx: Tx, placement: string): Promise<number[]> {
  const { rows } = await tx.query<{ id: number }>(
    `SELECT "id" FROM "site_links" WHERE "placement" = $1 ORDER BY "position", "id"`,
    [placement],
  );
  return rows.map((row) => row.id);
}

async function renumber(tx: Tx, ids: readonly number[]) {
  await tx.query(
    `UPDATE "site_links" l SET "position" = o.position
       FROM unnest($1::int[]) WITH ORDINALITY AS o(id, position)
      WHERE l."id" = o.id AND l."position" <> o.position`,
    [ids],
  );
}

function cleanLabel(label: string): string {
  const text = label.replace(/\s+/g, ' ').trim();
  if (text === '' || findNulCharacter(text) !== null) {
    throw new DomainError(
      400,
      'invalid_link',
      `label: ${text === '' ? 'must not be empty' : NUL_MESSAGE}.`,
    );
  }
  return text;
}
