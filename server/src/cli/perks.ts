import { readFile } from 'node:fs/promises';
import {
  commandWithSubcommands,
  fail,
  messageOf,
  printerOf,
  readConfigOrFail,
  type CommandWork,
} from './command-line.js';
import { perkRedemptionsFile, perksContentDir } from '../paths.js';
import { PerkCatalogError, readPerkCatalog, type PerkCatalog } from '../perks/catalog.js';
import { importCodes, parseCodes } from '../perks/import-codes.js';
import { perkReport } from '../perks/redeem.js';
import { withDatabase } from './open-database.js';

/**
 * The operator's perk commands, with the site's own configuration (the same environment as the
 * server):
 *   npm run perks:import -- <perk-id> codes.csv   load single-use codes into a perk's pool
 *   npm run perks:report                          claimed and left, per perk
 * Exit status 0 when all went well, 1 when something needs the operator, 2 for a wrong command.
 */

const USAGE = `usage:
  perks import <perk-id> <codes.csv>   (one code per line; an optional "code" header)
  perks report`;

async function readCatalog(): Promise<PerkCatalog> {
  try {
    return await readPerkCatalog({
      contentDir: perksContentDir,
      redemptionsFile: perkRedemptionsFile,
    });
  } catch (error) {
    if (error instanceof PerkCatalogError) fail(error.message);
    throw error;
  }
}

const importCommand: CommandWork = async ([perkId, file], env, io) => {
  if (!perkId || !file) fail(USAGE, 2);
  const perk = (await readCatalog()).find(perkId);
  if (!perk) fail(`There is no perk "${perkId}" in content/perks/.`);
  if (!('singleUseCodes' in perk.redemption)) {
    fail(
      `${perkId} is redeemed with one shared ${'code' in perk.redemption ? 'code' : 'link'} (perks/redemptions.json): set "singleUseCodes": true there to give each member a code of their own.`,
    );
  }
  const text = await readFile(file, 'utf8').catch((error: unknown) =>
    fail(`Cannot read ${file}: ${messageOf(error)}`),
  );
  const parsed = parseCodes(text);
  if (!parsed.ok) fail(`${file}: nothing imported.\n${parsed.problems.join('\n')}`);
  const result = await withDatabase(readConfigOrFail(env), io, ({ database }) =>
    importCodes({ db: database }, perkId, parsed.codes),
  );
  printerOf(io).out(
    `${perkId}: ${result.added} codes added, ${result.alreadyThere} already there (${parsed.codes.length} in ${file}).`,
  );
};

const reportCommand: CommandWork = async (_args, env, io) => {
  const catalog = await readCatalog();
  const rows = await withDatabase(readConfigOrFail(env), io, ({ database }) =>
    perkReport({ db: database }, catalog.all()),
  );
  const { out } = printerOf(io);
  const width = Math.max(4, ...rows.map((row) => row.perkId.length));
  out(`${'perk'.padEnd(width)}  claimed  left`);
  for (const row of rows) {
    const left = row.left === null ? 'shared' : String(row.left);
    out(`${row.perkId.padEnd(width)}  ${String(row.claimed).padStart(7)}  ${left}`);
  }
};

export const main = commandWithSubcommands('perks', USAGE, {
  import: importCommand,
  report: reportCommand,
});
