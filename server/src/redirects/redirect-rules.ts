import { RE2JS } from 're2js';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import {
  REDIRECT_LIMITS as LIMIT,
  type RedirectFormat,
  type RedirectRule,
} from '../../../contract/redirects-api.js';

/**
 * The publisher's redirects as Ghost writes them (`redirects.json`, `redirects.yaml`), read the
 * way Ghost reads them: `from` is a regular expression tried against the path, `/…/i` makes it
 * ignore case, a trailing slash is optional, and `$1`… in `to` are its captures. What differs is
 * the engine: RE2 (re2js), which has no backtracking, so a match costs time in proportion to the
 * path's length whatever the expression (`^(a+)+$` included). Lookarounds and backreferences,
 * which need backtracking, are refused when the file is given, with which rule says so.
 */

/** A redirect ready to be tried. */
export interface CompiledRedirect {
  rule: RedirectRule;
  pattern: RE2JS;
  /** The target's path, with its `$n`; what the match's captures fill. */
  toPath: string;
  /** The target's query (`?a=b`) and fragment, as written. */
  toQuery: URLSearchParams;
  toHash: string;
  /** The target's origin when the owner wrote an absolute address; null: this site. */
  toOrigin: string | null;
}

/** A file read: its rules, and (when checked) each compiled, in the same order. */
export type Parsed =
  | { ok: true; rules: RedirectRule[]; compiled: CompiledRedirect[] }
  | { ok: false; problems: string[] };

/** Paths longer than this are never matched: they answer their 404 without a look at the rules. */
export const MAX_PATH_CHARS = 2048;

/**
 * The most one rule may take to be tried against the longest paths, at upload (a simple one takes
 * a few hundredths of a millisecond); and the most one request spends trying them all, after which
 * it stops and answers its 404.
 */
export const PROBE_RULE_MS = 50;
/**
 * RE2's measure of an expression's size (its program's instructions): past it a match costs too
 * much even in linear time (`(a?){999}a{999}` took 2.7 s against 2,048-character paths, and
 * `(a?){190}a{190}`, 955, 116 ms), and it is refused before it is timed.
 */
export const MAX_PROGRAM_SIZE = 1000;
export const REQUEST_BUDGET_MS = 50;

/**
 * Reads a redirects file into its rules in order, or says every problem it has. `check: false`
 * (a file stored, checked when it was kept) reads the shape alone, compiling nothing.
 */
export function parseRedirectsFile(
  format: RedirectFormat,
  file: string,
  { check = true }: { check?: boolean } = {},
): Parsed {
  if (file.length > LIMIT.fileChars) {
    return { ok: false, problems: [`the file is over ${LIMIT.fileChars / 1024} KiB`] };
  }
  if (file.trim() === '') return { ok: true, rules: [], compiled: [] };
  let entries: { where: string; from: unknown; to: unknown; permanent: unknown }[];
  try {
    entries = format === 'json' ? jsonEntries(file) : yamlEntries(file);
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
  if (entries.length > LIMIT.rules) {
    return { ok: false, problems: [`${entries.length} redirects: at most ${LIMIT.rules}`] };
  }
  const problems: string[] = [];
  const rules: RedirectRule[] = [];
  const compiled: CompiledRedirect[] = [];
  for (const entry of entries) {
    const rule = checkEntry(entry);
    if (typeof rule === 'string') {
      problems.push(`${entry.where}: ${rule}`);
      continue;
    }
    rules.push(rule);
    if (!check) continue;
    try {
      compiled.push(compileRedirect(rule));
    } catch (error) {
      problems.push(`${entry.where}: ${(error as Error).message}`);
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rules, compiled };
}

function jsonEntries(file: string) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(file);
  } catch (error) {
    throw new Error(`not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(parsed)) {
    throw new Error('redirects.json is an array of {"from", "to", "permanent"}');
  }
  return parsed.map((item: unknown, index) => {
    const row = (item !== null && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    return { where: `redirect ${index + 1}`, from: row.from, to: row.to, permanent: row.permanent };
  });
}

function yamlEntries(file: string) {
  let parsed: unknown;
  try {
    // Plain data only: no custom tags, and aliases bounded so a small file cannot grow huge.
    parsed = parseYaml(file, { maxAliasCount: 10, uniqueKeys: true });
  } catch (error) {
    throw new Error(`not valid YAML: ${(error as Error).message.split('\n')[0]}`, {
      cause: error,
    });
  }
  if (parsed === null || parsed === undefined) return [];
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('redirects.yaml has a `301:` map, a `302:` map, or both');
  }
  const maps = parsed as Record<string, unknown>;
  const unknown = Object.keys(maps).filter((key) => key !== '301' && key !== '302');
  if (unknown.length > 0) {
    throw new Error(
      `redirects.yaml has only \`301:\` and \`302:\` maps, not ${unknown.join(', ')}`,
    );
  }
  // Ghost's order: every 301, then every 302.
  return (['301', '302'] as const).flatMap((status) => {
    const map = maps[status];
    if (map === undefined || map === null) return [];
    if (typeof map !== 'object' || Array.isArray(map)) {
      throw new Error(`\`${status}:\` is a map of from: to`);
    }
    return Object.entries(map as Record<string, unknown>).map(([from, to]) => ({
      where: `${status} ${from}`,
      from,
      to,
      permanent: status === '301',
    }));
  });
}

/** The rule, or what is wrong with it. */
function checkEntry(entry: {
  from: unknown;
  to: unknown;
  permanent: unknown;
}): RedirectRule | string {
  const { from, to } = entry;
  if (typeof from !== 'string' || from === '') return '`from` is missing';
  if (typeof to !== 'string' || to === '') return '`to` is missing';
  if (entry.permanent !== undefined && typeof entry.permanent !== 'boolean') {
    return '`permanent` is true or false';
  }
  if (from.length > LIMIT.fromChars) return `\`from\` is over ${LIMIT.fromChars} characters`;
  if (to.length > LIMIT.toChars) return `\`to\` is over ${LIMIT.toChars} characters`;
  return { from, to, permanent: entry.permanent === true };
}

/** Ghost's reading of `from`: `/…/i` ignores case, a trailing slash is optional, `$` is implied. */
function patternOf(from: string): { source: string; flags: number } {
  let source = from;
  let flags = 0;
  if (/^\/.*\/i$/.test(source)) {
    source = source.slice(1, -2);
    flags = RE2JS.CASE_INSENSITIVE;
  }
  if (source.endsWith('/')) source = source.slice(0, -1);
  if (!source.endsWith('$')) source += '\\/?$';
  return { source, flags };
}

/** Characters that may not appear in a target: browsers drop or bend them (`/\t/x` is `//x`). */
const UNSAFE_IN_TARGET = /[\s\\\p{Cc}]/u;
const BASE = 'https://this-site.invalid';

/**
 * A rule made ready, or an Error saying why it cannot be: an expression the engine refuses (with
 * why), a target that would leave the site without being an absolute address (`//evil.example`,
 * `\\evil`, `evil.example`), or an absolute one that is not http(s).
 */
export function compileRedirect(rule: RedirectRule): CompiledRedirect {
  const { source, flags } = patternOf(rule.from);
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(source, flags);
  } catch (error) {
    const why = (error as Error).message.replace(/^error parsing regexp: /, '');
    const hint = /Perl syntax|escape sequence/.test(why)
      ? ' (lookarounds and backreferences are not run here: they can take unbounded time)'
      : '';
    throw new Error(`\`from\` ${rule.from} cannot be used: ${why}${hint}`, { cause: error });
  }
  if (pattern.programSize() > MAX_PROGRAM_SIZE) {
    throw new Error(`\`from\` ${rule.from} is too large an expression: split it`);
  }
  const { to } = rule;
  if (UNSAFE_IN_TARGET.test(to)) {
    throw new Error(`\`to\` ${JSON.stringify(to)} has spaces, backslashes or control characters`);
  }
  const absolute = /^https?:\/\//i.test(to);
  if (!absolute && !/^\/(?![/\\])/.test(to)) {
    throw new Error(
      `\`to\` ${to} is neither a path on this site (starting with one /) nor an http(s) address`,
    );
  }
  const url = new URL(to, BASE);
  if (absolute) {
    if (url.username || url.password) throw new Error(`\`to\` ${to} carries a user name`);
    if (/\$/.test(url.host)) throw new Error(`\`to\` ${to}: captures go in the path, not the host`);
  } else if (url.origin !== BASE) {
    throw new Error(`\`to\` ${to} leaves the site`);
  }
  // The path as written (URL would escape nothing of `$1`, but keep the owner's spelling).
  const written = absolute ? to.replace(/^https?:\/\/[^/?#]*/i, '') : to;
  const toPath = written.replace(/[?#].*$/, '') || '/';
  return {
    rule,
    pattern,
    toPath,
    toQuery: url.searchParams,
    toHash: url.hash,
    toOrigin: absolute ? url.origin : null,
  };
}

/** Compiles rules already checked (those stored); one that no longer compiles is left out. */
export function compileRedirects(
  rules: readonly RedirectRule[],
  onRefused: (rule: RedirectRule, error: Error) => void = () => {},
): CompiledRedirect[] {
  return rules.flatMap((rule) => {
    try {
      return [compileRedirect(rule)];
    } catch (error) {
      onRefused(rule, error as Error);
      return [];
    }
  });
}

/** Where a request for `path` (raw, as sent) with `query` goes, and how; null: nowhere. */
export interface RedirectAnswer {
  location: string;
  status: 301 | 302;
}

/**
 * The first redirect whose `from` matches the path, as Ghost answers it: the captures fill the
 * target's path, the request's query is kept under the target's own. A relative target stays on
 * this site whatever the captures held (`/go//evil.example` with `to: /$1` lands on
 * `/evil.example`). Stops after `budgetMs`, answering null, so no set of rules holds a request up.
 */
export function findRedirect(
  redirects: readonly CompiledRedirect[],
  path: string,
  query: string,
  options: { budgetMs?: number; onOverBudget?: (tried: number) => void } = {},
): RedirectAnswer | null {
  if (redirects.length === 0 || path.length > MAX_PATH_CHARS) return null;
  const deadline = performance.now() + (options.budgetMs ?? REQUEST_BUDGET_MS);
  for (const [index, redirect] of redirects.entries()) {
    if (performance.now() > deadline) {
      options.onOverBudget?.(index);
      return null;
    }
    if (!redirect.pattern.test(path)) continue;
    return answerFor(redirect, path, query);
  }
  return null;
}

function answerFor(redirect: CompiledRedirect, path: string, query: string): RedirectAnswer | null {
  const filled = redirect.pattern.matcher(path).replaceFirst(redirect.toPath);
  // Whatever the captures put there, one leading slash, and nothing a browser would bend.
  const cleaned = `/${filled.replace(/^[/\\]+/, '')}`.replace(/[\s\\\p{Cc}]/gu, (char) =>
    encodeURIComponent(char),
  );
  const origin = redirect.toOrigin ?? BASE;
  const url = new URL(cleaned, origin);
  if (url.origin !== origin) return null;
  const params = new URLSearchParams(query);
  for (const [name, value] of redirect.toQuery) params.set(name, value);
  const search = params.toString();
  const location = `${url.pathname}${search ? `?${search}` : ''}${redirect.toHash}`;
  return {
    location: redirect.toOrigin ? `${redirect.toOrigin}${location}` : location,
    status: redirect.rule.permanent ? 301 : 302,
  };
}

/**
 * Times each rule against the longest path a request may bring, in the shapes that make a regular
 * expression work hardest (one character repeated, then one that fails it): a rule that is slow
 * even on a linear-time engine (a huge expression) is known before it is kept. A rule over the
 * limit is timed once more, so a pause of the process's own does not refuse it. Answers the
 * problem, or null.
 */
export function probeRedirects(
  redirects: readonly CompiledRedirect[],
  limitMs: number = PROBE_RULE_MS,
): string | null {
  const probes = ['a', '0', '-', '/'].map((char) =>
    `/${char.repeat(MAX_PATH_CHARS - 2)}!`.slice(0, MAX_PATH_CHARS),
  );
  // A fresh copy each time: RE2 keeps the states it has built, and the second run of the same
  // copy is fast, which is not what the first request after a start pays.
  const time = (redirect: CompiledRedirect) => {
    const cold = RE2JS.compile(redirect.pattern.pattern(), redirect.pattern.flags());
    const started = performance.now();
    for (const probe of probes) cold.test(probe);
    return performance.now() - started;
  };
  for (const redirect of redirects) {
    if (time(redirect) > limitMs && time(redirect) > limitMs) {
      return `${redirect.rule.from} took over ${limitMs} ms against a ${MAX_PATH_CHARS}-character path: make it simpler`;
    }
  }
  return null;
}

/** The rules as a file in `format`: what an import's additions are written back as. */
export function writeRedirectsFile(format: RedirectFormat, rules: readonly RedirectRule[]): string {
  if (format === 'json') return `${JSON.stringify(rules, null, 2)}\n`;
  const maps: Record<string, Record<string, string>> = {};
  for (const rule of rules) {
    const status = rule.permanent ? '301' : '302';
    maps[status] = { ...maps[status], [rule.from]: rule.to };
  }
  return rules.length === 0 ? '' : stringifyYaml(maps);
}
