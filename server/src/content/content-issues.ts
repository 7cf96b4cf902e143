import { basename } from 'node:path';

/** One problem in one content file: the build prints `file: field: message`. */
export interface ContentIssue {
  file: string;
  field: string;
  message: string;
}

export class ContentValidationError extends Error {
  constructor(readonly issues: readonly ContentIssue[]) {
    super(
      `Content validation failed (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n` +
        issues.map((issue) => `  ${issue.file}: ${issue.field}: ${issue.message}`).join('\n'),
    );
    this.name = 'ContentValidationError';
  }
}

/** Collects the problems found while content is read and checked, so one build reports them all. */
export class IssueLog {
  readonly issues: ContentIssue[] = [];

  constructor(private readonly contentDir: string) {}

  add(file: string, field: string, message: string) {
    this.issues.push({ file, field, message });
  }

  /** How a problem with a whole folder names its place: `content/articles/`. */
  folder(name: string): string {
    return `${basename(this.contentDir)}/${name}/`;
  }

  /** Throws them all, ordered by file (each file's own problems in the order found). */
  throwIfAny() {
    if (this.issues.length === 0) return;
    throw new ContentValidationError([...this.issues].sort((a, b) => a.file.localeCompare(b.file)));
  }
}
