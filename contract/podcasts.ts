import { parseUploadUrl } from './images.js';

// A section of articles may be a podcast: its feed (`/<slug>/rss.xml`) then carries Apple's
// podcast tags and each episode's audio or video, and each member has a private feed of it with
// the members-only episodes too. What it says of itself is the section's `podcast`: who makes it,
// its category, whether it is explicit, its cover. The desk's form and the server check the same
// rules, from here (no schema library: the desk's sections page carries none).

/**
 * Apple Podcasts' categories and their sub-categories (podcasters.apple.com, "Apple Podcasts
 * categories"), which Spotify and the other directories read too. A podcast names one, a
 * sub-category as `Parent > Child` (`Arts > Books`).
 */
export const PODCAST_CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  Arts: ['Books', 'Design', 'Fashion & Beauty', 'Food', 'Performing Arts', 'Visual Arts'],
  Business: ['Careers', 'Entrepreneurship', 'Investing', 'Management', 'Marketing', 'Non-Profit'],
  Comedy: ['Comedy Interviews', 'Improv', 'Stand-Up'],
  Education: ['Courses', 'How To', 'Language Learning', 'Self-Improvement'],
  Fiction: ['Comedy Fiction', 'Drama', 'Science Fiction'],
  Government: [],
  'Health & Fitness': [
    'Alternative Health',
    'Fitness',
    'Medicine',
    'Mental Health',
    'Nutrition',
    'Sexuality',
  ],
  History: [],
  'Kids & Family': ['Education for Kids', 'Parenting', 'Pets & Animals', 'Stories for Kids'],
  Leisure: [
    'Animation & Manga',
    'Automotive',
    'Aviation',
    'Crafts',
    'Games',
    'Hobbies',
    'Home & Garden',
    'Video Games',
  ],
  Music: ['Music Commentary', 'Music History', 'Music Interviews'],
  News: [
    'Business News',
    'Daily News',
    'Entertainment News',
    'News Commentary',
    'Politics',
    'Sports News',
    'Tech News',
  ],
  'Religion & Spirituality': [
    'Buddhism',
    'Christianity',
    'Hinduism',
    'Islam',
    'Judaism',
    'Religion',
    'Spirituality',
  ],
  Science: [
    'Astronomy',
    'Chemistry',
    'Earth Sciences',
    'Life Sciences',
    'Mathematics',
    'Natural Sciences',
    'Nature',
    'Physics',
    'Social Sciences',
  ],
  'Society & Culture': [
    'Documentary',
    'Personal Journals',
    'Philosophy',
    'Places & Travel',
    'Relationships',
  ],
  Sports: [
    'Baseball',
    'Basketball',
    'Cricket',
    'Fantasy Sports',
    'Football',
    'Golf',
    'Hockey',
    'Rugby',
    'Running',
    'Soccer',
    'Swimming',
    'Tennis',
    'Volleyball',
    'Wilderness',
    'Wrestling',
  ],
  Technology: [],
  'True Crime': [],
  'TV & Film': ['After Shows', 'Film History', 'Film Interviews', 'Film Reviews', 'TV Reviews'],
};

const SUBCATEGORY_MARK = ' > ';

/** A category, or a sub-category under its parent: `News`, `Arts > Books`. */
export const podcastCategoryValue = (category: string, subcategory?: string) =>
  subcategory === undefined ? category : `${category}${SUBCATEGORY_MARK}${subcategory}`;

/** The category and sub-category a value names (`Arts > Books`), or null for none of Apple's. */
export function parsePodcastCategory(
  value: string,
): { category: string; subcategory: string | null } | null {
  const [category = '', subcategory, ...rest] = value.split(SUBCATEGORY_MARK);
  if (rest.length > 0 || !Object.hasOwn(PODCAST_CATEGORIES, category)) return null;
  if (subcategory === undefined) return { category, subcategory: null };
  return PODCAST_CATEGORIES[category]?.includes(subcategory) ? { category, subcategory } : null;
}

/** What a podcast says of itself (a section's `podcast`; null: the section is no podcast). */
export interface SectionPodcast {
  /** Who makes it: the show's `itunes:author`. */
  author: string;
  /** One of PODCAST_CATEGORIES: `News`, `Arts > Books`. */
  category: string;
  /** Whether its episodes hold explicit content, as Apple and Spotify ask each show to say. */
  explicit: boolean;
  /** An uploaded image (`/uploads/…`): the cover, square, at least MIN_COVER_SIZE pixels. */
  image: string;
  /**
   * The address the directories write to about the show (`itunes:owner`): Spotify sends its
   * verification code there. Shown in the feed; null for none.
   */
  email: string | null;
}

/** Apple reads at most 255 characters of a tag. */
export const MAX_PODCAST_AUTHOR = 255;

/**
 * Apple asks for a square cover of 1400 to 3000 pixels a side, as a JPEG or a PNG. An upload's
 * widest copy is at most 2400 pixels (contract/images.ts), under the most; the feed names a JPEG
 * made from it.
 */
export const MIN_COVER_SIZE = 1400;

/** Why an address cannot be a podcast's cover, in words for the publisher; null when it can. */
export function podcastCoverProblem(url: string): string | null {
  const image = parseUploadUrl(url);
  if (!image) return 'must be an image uploaded to this site';
  const { width, height } = image;
  if (width !== height) {
    return `must be square, as Apple Podcasts and Spotify ask: this one is ${width}×${height} pixels`;
  }
  if (width < MIN_COVER_SIZE) {
    return `must be at least ${MIN_COVER_SIZE}×${MIN_COVER_SIZE} pixels, as Apple Podcasts asks: this one is ${width}×${height}`;
  }
  return null;
}

/** Where a podcast's cover is served as the JPEG the directories take, by its upload. */
export const PODCAST_COVERS_PATH = '/feeds/covers/';

/** The cover's JPEG, made from the upload's widest copy: `/feeds/covers/<id>-<w>x<h>.jpg`. */
export function podcastCoverPath(url: string): string | null {
  const image = parseUploadUrl(url);
  return image && `${PODCAST_COVERS_PATH}${image.id}-${image.width}x${image.height}.jpg`;
}

/** A member's private feed of a podcast: `/feeds/<token>.xml`. */
export const privateFeedPath = (token: string) => `/feeds/${token}.xml`;

/** A member's private feeds on /account: GET lists them, POST `/<section id>` makes one anew. */
export const PODCAST_FEEDS_API = '/api/account/podcast-feeds';
