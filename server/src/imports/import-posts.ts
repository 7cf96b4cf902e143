import { isRemoteImageUrl } from '../../../contract/images.js';
import { MAX_BODY_CHARS } from '../../../contract/post-fields.js';
import { cleanLine } from '../../../contract/text-hygiene.js';
import { readArticleSectionNames } from '../content/section-store.js';
import {
  isScreenText,
  KINDS_NEEDING_BODY,
  KINDS_WITH_BODY,
  pageSlugProblem,
  postPath,
  type PostKind,
} from '../../../contract/posts.js';
import { MAX_TAGS, topicSlug } from '../../../contract/topics.js';
import { saveImportedPost, type ImportedPost } from '../content/post-import.js';
import { cutAtWord, summaryOf } from '../content/post-summary.js';
import { ensureImportedAuthor } from '../content/author-profiles.js';
import { setPostAuthors } from '../content/post-authors.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { withoutInvisible } from './clean-slug.js';
import { wordCountOf } from '../content/markdown-text.js';
import { cardAddressesIn } from '../content/markdown-to-tree.js';
import { describeUnreadCard } from '../embeds/card-reader.js';
import { htmlToMarkdown, rewriteImages } from './html-to-markdown.js';
import {
  cohortFields,
  cohortPlacing,
  ensureSections,
  findSampleToReplace,
} from './import-cohort.js';
import { ensureTiers } from './import-tiers.js';
import { takeImages } from './post-images.js';
import { takeMedia } from './post-media.js';
import {
  digestOf,
  itemKeyOf,
  nameOf,
  oldPathOf,
  placement,
  readImportItems,
  readTopicSlugs,
  slugsOf,
  type Plan,
  type PostsDeps,
  type PostsOptions,
  type PostsOutcome,
  type PostsProgress,
} from './post-planning.js';
import type {
  ImportCounts,
  ImportSource,
  SourceAuthor,
  SourceBundle,
  SourcePost,
} from './source.js';

/**
 * An export's posts and pages put into the site: each post an article in a section, each page a
 * page of its own at `/<slug>`. Every post is saved on its own (one transaction each, through
 * post-import.ts saveImportedPost, with the desk's checks), so one the site refuses is skipped
 * with the reason and the others still come. `import_items` remembers which post each of the
 * export's posts became and a digest of what the file said: a second run leaves a post the file
 * says the same of alone, updates one the file changed (keeping a revision), and never overwrites
 * one edited here since. A dry run does the same work and rolls each transaction back. What is
 * decided before writing is post-planning.ts's; the images, post-images.ts's.
 */

/** Words a minute, for an article's reading time. */
const WORDS_PER_MINUTE = 230;
/** The longest tag, title and SEO texts the site takes (contract/post-fields.ts). */
const TAG_CHARS = 40;
const TITLE_CHARS = 200;
const SEO_TITLE_CHARS = 120;
const SEO_DESCRIPTION_CHARS = 300;
const ALT_CHARS = 500;

/** Text the database takes: PostgreSQL refuses the NUL character in text. */
// eslint-disable-next-line no-control-regex -- the NUL character is what this removes
const noNul = (text: string) => text.replace(/\u0000/g, '');

/** The tags an article may carry: named, at most TAG_CHARS each, MAX_TAGS in all, no twins. */
function fitTags(tags: readonly string[], title: string, notes: string[]): string[] {
  const kept: string[] = [];
  const slugs = new Set<string>();
  const overLimit: string[] = [];
  for (const raw of tags) {
    let name = cleanLine(raw);
    if (topicSlug(name) === '') {
      if (name !== '') notes.push(`"${title}": tag "${name}" dropped (no letter or digit)`);
      continue;
    }
    if (name.length > TAG_CHARS) {
      const short = cutAtWord(name, TAG_CHARS, '');
      notes.push(
        `"${title}": tag "${name}" shortened to "${short}" (at most ${TAG_CHARS} characters)`,
      );
      name = short;
    }
    const slug = topicSlug(name);
    if (slugs.has(slug)) continue;
    slugs.add(slug);
    if (kept.length === MAX_TAGS) overLimit.push(name);
    else kept.push(name);
  }
  // One note for all a post's tags past the limit: a file with dozens (WordPress's "Many
  // Categories") would otherwise fill the report with a line for each.
  if (overLimit.length > 0) {
    const names = overLimit.map((name) => `"${name}"`).join(', ');
    notes.push(
      `"${title}": ${overLimit.length === 1 ? 'tag' : `${overLimit.length} tags`} ${names} dropped (at most ${MAX_TAGS} tags on a post)`,
    );
  }
  return kept;
}

const emptyCounts = (): ImportCounts => ({ created: 0, updated: 0, unchanged: 0, skipped: [] });

/** PostgreSQL's "data exception" errors (class 22): a value out of range, a bad encoding. */
const isDataError = (error: unknown): error is Error =>
  error instanceof Error && /^22/.test(String((error as { code?: unknown }).code ?? ''));

/** A dry run's transaction, undone once it has said what it would have done. */
class DryRunDone extends Error {
  constructor(readonly outcome: Written) {
    super('dry run: rolled back');
  }
}

interface Written {
  created: boolean;
  id: number;
  redirects: number;
}

export async function writePosts(
  deps: PostsDeps,
  bundle: SourceBundle,
  options: PostsOptions,
  onProgress: PostsProgress = () => {},
): Promise<PostsOutcome> {
  // A Cohort export's sections first, so that its posts go back to theirs.
  const sectionNotes = await ensureSections(deps.pool, bundle.sections ?? [], options.dryRun);
  const sectionNames = await readArticleSectionNames(deps.pool);
  const fallback = placement(options, sectionNames);
  const place = (post: SourcePost) => cohortPlacing(post, sectionNames) ?? fallback(post);
  const outcome: PostsOutcome = {
    posts: emptyCounts(),
    pages: emptyCounts(),
    drafts: 0,
    scheduled: 0,
    topics: 0,
    redirects: 0,
    images: { stored: 0, notFetched: [] },
    notes: sectionNotes,
  };
  // The tiers first: the posts name them.
  const tiers = await ensureTiers(deps.pool, bundle.tiers, {
    dryRun: options.dryRun,
    currency: deps.config.membership.currency,
  });
  outcome.notes.push(...tiers.notes);
  if (bundle.posts.length === 0) return outcome;
  const items = await readImportItems(deps.pool, bundle.source);
  const topicsBefore = await readTopicSlugs(deps.pool);
  const placed = new Map<string, { count: number; section: string; how: string }>();

  const slugs = slugsOf(bundle.posts);

  // First every post is read and converted, so the images of all of them are known.
  const plans: Plan[] = [];
  for (const post of bundle.posts) {
    // A Cohort export says each post's kind; Ghost's words alone say post or page.
    const kind: PostKind = post.cohort?.kind ?? (post.type === 'page' ? 'page' : 'article');
    const counts = kind === 'page' ? outcome.pages : outcome.posts;
    const name = nameOf(post);
    const digest = digestOf(post);
    const key = itemKeyOf(bundle, post);
    const item = items.get(key);
    const postId = item?.postId ?? null;
    if (item && postId !== null) {
      if (item.digest === digest) {
        counts.unchanged += 1;
        continue;
      }
      if (item.editedHere) {
        counts.skipped.push({
          item: name,
          reason: 'edited here since the last import; not overwritten',
        });
        continue;
      }
    }
    const { slug, note } = slugs.get(post) as { slug: string; note?: string };
    if (note) outcome.notes.push(note);
    if (kind === 'page') {
      // A Cohort export's screen texts (home, policies) are that screen's here too.
      const problem = post.cohort && isScreenText(slug) ? null : pageSlugProblem(slug);
      if (problem) {
        counts.skipped.push({ item: name, reason: `slug "${slug}": ${problem}` });
        continue;
      }
    }
    const placing = kind === 'article' ? place(post) : null;
    const converted = htmlToMarkdown(post.html, {
      flavour: post.flavour,
      siteUrl: bundle.siteUrl,
      attachments: bundle.attachments,
    });
    if (converted.dropped.length > 0) {
      outcome.notes.push(`"${name}": removed ${[...new Set(converted.dropped)].join(', ')}`);
    }
    plans.push({
      post,
      key,
      kind,
      counts,
      digest,
      postId: postId ?? (post.cohort ? await findSampleToReplace(deps.pool, kind, slug) : null),
      slug,
      placing,
      markdown: converted.markdown,
      images: converted.images,
      media: converted.media,
    });
  }

  const images = await takeImages(deps, bundle, options, plans, outcome, onProgress);
  // An audio or video file is written as an image is, and rewritten with them.
  for (const [url, upload] of await takeMedia(deps, bundle, options, plans, outcome, onProgress)) {
    images.set(url, upload);
  }
  if (!options.dryRun) await readCards(deps, plans, outcome);

  const newTopics = new Set<string>();
  const scheduled: { id: number; at: Date }[] = [];
  let done = 0;
  for (const plan of plans) {
    onProgress({ phase: 'posts', done, total: plans.length });
    done += 1;
    const { post, counts } = plan;
    const name = nameOf(post);
    const candidate = buildPost(plan, images, tiers.ids, outcome.notes);
    if (candidate.body.length > MAX_BODY_CHARS) {
      counts.skipped.push({
        item: name,
        reason: `its text is longer than the site takes (${MAX_BODY_CHARS.toLocaleString('en')} characters)`,
      });
      continue;
    }
    let written: Written;
    try {
      written = await writeOne(deps, bundle.source, plan, candidate, options.dryRun);
    } catch (error) {
      if (error instanceof DryRunDone) {
        written = error.outcome;
      } else if (error instanceof DomainError) {
        counts.skipped.push({ item: name, reason: error.message });
        continue;
      } else if (isDataError(error)) {
        // A value PostgreSQL cannot keep (a date before 4713 BC): this post, not the whole run.
        counts.skipped.push({ item: name, reason: `the database refused it: ${error.message}` });
        continue;
      } else {
        throw error;
      }
    }
    if (written.created) counts.created += 1;
    else counts.updated += 1;
    outcome.redirects += written.redirects;
    if (plan.placing) {
      const key = `${plan.placing.section}\u0000${plan.placing.how}`;
      placed.set(key, { count: (placed.get(key)?.count ?? 0) + 1, ...plan.placing });
    }
    if (candidate.status === 'draft') outcome.drafts += 1;
    if (candidate.status === 'scheduled') {
      outcome.scheduled += 1;
      if (candidate.publishedAt) scheduled.push({ id: written.id, at: candidate.publishedAt });
    }
    const tags = candidate.fields.tags;
    if (Array.isArray(tags)) {
      for (const tag of tags as string[]) {
        if (!topicsBefore.has(topicSlug(tag))) newTopics.add(topicSlug(tag));
      }
    }
  }
  onProgress({ phase: 'posts', done, total: plans.length });
  outcome.topics = newTopics.size;
  if (!options.dryRun && deps.schedule) {
    for (const { id, at } of scheduled) await deps.schedule.publishAt(id, at);
  }
  for (const { count, section, how } of [...placed.values()].reverse()) {
    outcome.notes.unshift(
      `${count} ${count === 1 ? 'post' : 'posts'} placed in ${section}, ${how}`,
    );
  }
  return outcome;
}

/**
 * Reads the cards the posts name before any is written (never in a post's transaction), each
 * address once; one that could not be read is said in the notes, by the post that names it. A dry
 * run reads none: it would keep what it read.
 */
async function readCards(deps: PostsDeps, plans: readonly Plan[], outcome: PostsOutcome) {
  if (!deps.cards) return;
  const named = plans.map((plan) => ({ plan, urls: cardAddressesIn(plan.markdown) }));
  const unread = await deps.cards.read(named.flatMap(({ urls }) => urls));
  for (const { plan, urls } of named) {
    for (const card of unread.filter(({ url }) => urls.includes(url))) {
      outcome.notes.push(`"${nameOf(plan.post)}": ${describeUnreadCard(card)}`);
    }
  }
}

/**
 * Who may read the post here: as the reader mapped it, a tier's post for the site's tiers the
 * export's became (ensureTiers). One naming none of them is for every paying member, failing
 * closed, and the notes say so.
 */
function readersOf(
  post: SourcePost,
  title: string,
  tierIds: ReadonlyMap<string, number>,
  notes: string[],
): Pick<ImportedPost, 'visibility' | 'tierIds'> {
  if (post.visibility !== 'tiers') return { visibility: post.visibility, tierIds: [] };
  const ids = [...new Set(post.tiers.flatMap((slug) => tierIds.get(slug) ?? []))];
  if (ids.length > 0) return { visibility: 'tiers', tierIds: ids };
  notes.push(
    `"${title}": for paying members here, failing closed: none of its tiers (${post.tiers.join(', ')}) is on the site`,
  );
  return { visibility: 'members', tierIds: [] };
}

/**
 * An image's old address when it can be kept as one (an absolute http(s) address, no longer than
 * a link may be), for `--retry-images` to fetch later; null for anything else (a bare path).
 */
const keptRemote = (url: string) =>
  isRemoteImageUrl(url) && url.length <= MAX_KEPT_URL ? url : null;
const MAX_KEPT_URL = 2000;

/** The post as the site keeps it: its text cut to the site's limits, its images uploads. */
function buildPost(
  plan: Plan,
  images: Map<string, string>,
  tierIds: ReadonlyMap<string, number>,
  notes: string[],
): ImportedPost {
  const { post } = plan;
  let title = cleanLine(post.title);
  if (title === '') {
    // A post without a title (WordPress allows one) is named by its slug's words, not lost.
    const words = plan.slug.replace(/-/g, ' ');
    title = `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
    notes.push(`"${plan.slug}": had no title; titled "${title}" from its slug`);
  }
  if (title.length > TITLE_CHARS) {
    const short = cutAtWord(title, TITLE_CHARS);
    notes.push(`"${withoutInvisible(short)}": title shortened to ${TITLE_CHARS} characters`);
    title = short;
  }
  // An audio or video file not taken stays a link (an image it is not); an image not fetched
  // stays an image at its old address, for a later retry.
  const media = new Set(plan.media.map((file) => file.url));
  const body = noNul(
    rewriteImages(plan.markdown, (image) => {
      const url = images.get(image.url) ?? (media.has(image.url) ? null : keptRemote(image.url));
      if (!url) return null;
      const alt = image.alt?.trim() || image.caption?.trim() || title || 'Image';
      return { url, alt: cutAtWord(alt, ALT_CHARS) };
    }),
  ).trim();
  const readers = readersOf(post, withoutInvisible(title), tierIds, notes);
  const summary = summaryOf(
    { title, body, visibility: readers.visibility },
    noNul(post.excerpt ?? ''),
  );
  const featureUrl = post.featureImage
    ? (images.get(post.featureImage.url) ?? keptRemote(post.featureImage.url))
    : null;
  const featureAlt = post.featureImage?.alt?.trim() || post.featureImage?.caption?.trim() || title;
  const optional = (text: string | undefined, max: number) => {
    const fitted = cutAtWord(noNul(text ?? ''), max);
    return fitted === '' ? null : fitted;
  };
  const fields: Record<string, unknown> = post.cohort
    ? cohortFields(post.cohort, plan.placing)
    : plan.kind === 'page'
      ? { description: summary }
      : {
          category: plan.placing?.section,
          summary,
          readingMinutes: Math.min(
            60,
            Math.max(1, Math.round(wordCountOf(body) / WORDS_PER_MINUTE)),
          ),
        };
  if (plan.kind === 'article' && !post.cohort) {
    const tags = fitTags(post.tags, withoutInvisible(title), notes);
    if (tags.length > 0) fields.tags = tags;
  }
  return {
    kind: plan.kind,
    slug: plan.slug,
    title,
    // A resource list has no body: what the export showed Ghost of it is its fields'.
    body: KINDS_WITH_BODY.includes(plan.kind) ? body : '',
    ...readers,
    featureImage: featureUrl,
    featureImageAlt: featureUrl ? cutAtWord(noNul(featureAlt), ALT_CHARS) : null,
    seoTitle: optional(post.seoTitle, SEO_TITLE_CHARS),
    seoDescription: optional(post.seoDescription, SEO_DESCRIPTION_CHARS),
    fields,
    ...lifecycleOfText(post, body, withoutInvisible(title), notes),
  };
}

/**
 * A live post with no text at all (WordPress allows one; a parent page often is) cannot be live
 * here, where a post on the site has a body: it comes in as a draft, with its title and
 * addresses, for the publisher to fill or delete, rather than be left out.
 */
function lifecycleOfText(
  post: SourcePost,
  body: string,
  title: string,
  notes: string[],
): Pick<ImportedPost, 'status' | 'publishedAt'> {
  const lifecycle = lifecycleOf(post);
  const needsBody = !post.cohort || KINDS_NEEDING_BODY.includes(post.cohort.kind);
  if (body !== '' || lifecycle.status === 'draft' || !needsBody) return lifecycle;
  notes.push(`"${title}": has no text; imported as a draft`);
  return { status: 'draft', publishedAt: lifecycle.publishedAt };
}

/**
 * Published, draft or scheduled as the platform had it: a scheduled post keeps its time and goes
 * live by the site's schedule; one whose time has passed is published; one without a time stays
 * a draft (publishing at an unknown time would put it on the site now, unasked).
 */
function lifecycleOf(post: SourcePost): Pick<ImportedPost, 'status' | 'publishedAt'> {
  const at = post.publishedAt ?? null;
  if (post.status === 'draft') return { status: 'draft', publishedAt: at };
  if (post.status === 'scheduled') {
    if (!at) return { status: 'draft', publishedAt: null };
    return { status: at.getTime() > Date.now() ? 'scheduled' : 'published', publishedAt: at };
  }
  return { status: 'published', publishedAt: at ?? new Date() };
}

/**
 * Gives an imported post the authors its export named, in their order, each a profile here
 * (found by slug, address or name, else made: content/author-profiles.ts). A post whose export
 * names nobody (Substack's) keeps the authors it had, if it was imported before.
 */
async function creditImportedAuthors(tx: Tx, postId: number, authors: readonly SourceAuthor[]) {
  const slugs: string[] = [];
  for (const author of authors) {
    if (!author.name.trim() && !author.slug) continue;
    const slug = await ensureImportedAuthor(tx, author);
    if (!slugs.includes(slug)) slugs.push(slug);
  }
  if (slugs.length > 0) await setPostAuthors(tx, postId, slugs);
}

/**
 * One post in one transaction: refused when its slug is another post's (one this import did not
 * make from this item), then saved, its old addresses recorded, and its import item kept.
 */
async function writeOne(
  deps: PostsDeps,
  source: ImportSource,
  plan: Plan,
  post: ImportedPost,
  dryRun: boolean,
): Promise<Written> {
  return withTransaction(deps.pool, async (tx) => {
    // Two imports of the same file at once: the second waits, then finds this one's work.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
      `cohort:import:${source}:${plan.key}`,
    ]);
    const { rows: taken } = await tx.query<{ id: number; deleted: boolean }>(
      `SELECT "id", "deletedAt" IS NOT NULL AS deleted FROM "posts"
        WHERE "kind" = $1 AND "slug" = $2 AND "id" IS DISTINCT FROM $3`,
      [post.kind, post.slug, plan.postId],
    );
    const other = taken[0];
    if (other) {
      throw new DomainError(
        409,
        'slug_taken',
        `slug "${post.slug}" is taken by ${other.deleted ? 'a deleted' : 'another'} ${post.kind === 'page' ? 'page' : 'post'} here (post ${other.id}); not overwritten`,
      );
    }
    const saved = await saveImportedPost(tx, post, plan.postId);
    // A sample it took the place of is the publisher's now: removing the samples keeps it.
    await tx.query(`UPDATE "posts" SET "sample" = false WHERE "id" = $1 AND "sample"`, [saved.id]);
    await creditImportedAuthors(tx, saved.id, plan.post.authors);
    const own = postPath({ kind: post.kind, slug: post.slug, category: post.fields.category });
    let redirects = 0;
    for (const address of new Set(plan.post.oldPaths.map(oldPathOf))) {
      if (address === null || address === own) continue;
      const { rowCount } = await tx.query(
        `INSERT INTO "post_paths" ("path", "postId") VALUES ($1, $2) ON CONFLICT ("path") DO NOTHING`,
        [address, saved.id],
      );
      redirects += rowCount ?? 0;
    }
    await tx.query(
      `INSERT INTO "import_items"
          ("source", "sourceId", "kind", "targetId", "digest", "authors", "importedAt")
        VALUES ($1, $2, 'post', $3, $4, $5, now())
        ON CONFLICT ("source", "kind", "sourceId")
          DO UPDATE SET "targetId" = EXCLUDED."targetId", "digest" = EXCLUDED."digest",
            "authors" = EXCLUDED."authors", "importedAt" = now()`,
      [source, plan.key, String(saved.id), plan.digest, JSON.stringify(plan.post.authors)],
    );
    const written = { created: plan.postId === null, id: saved.id, redirects };
    if (dryRun) throw new DryRunDone(written);
    return written;
  });
}
