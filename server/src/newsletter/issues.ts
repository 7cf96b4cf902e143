import { readFile } from 'node:fs/promises';
import Value from 'typebox/value';
import { NewslettersFileSchema, type NewsletterIssue } from '../../../contract/newsletters.js';

export type { NewsletterIssue };

/**
 * The issues the build wrote (contract/newsletters.ts), or null when there is no build. A file
 * that is there but wrong is an error naming what is wrong.
 */
export async function readNewsletterIssues(file: string): Promise<NewsletterIssue[] | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (!Value.Check(NewslettersFileSchema, parsed)) {
    const problems = [...Value.Errors(NewslettersFileSchema, parsed)]
      .slice(0, 5)
      .map((problem) => `${problem.instancePath || '/'} ${problem.message}`);
    throw new Error(
      `${file} is not the newsletters file (run \`npm run build\`): ${problems.join('; ')}`,
    );
  }
  // The build made the bodies from content/newsletters with the same converter as articles'.
  return parsed.issues as NewsletterIssue[];
}
