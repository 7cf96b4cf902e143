import { lazy, Suspense, type ComponentProps } from 'react';

// The comments' code (and the contract's comment schemas, with TypeBox) is not needed to read or
// hydrate the post above them: it loads on its own, and until it has, the comments the server drew
// stay as they are (React hydrates this boundary once its code is there).
const CommentsSection = lazy(() =>
  import('./comments-section').then((module) => ({ default: module.CommentsSection })),
);

/** The comments under a post (`CommentsSection`), loaded on their own. */
export function LazyCommentsSection(props: ComponentProps<typeof CommentsSection>) {
  return (
    <Suspense fallback={null}>
      <CommentsSection {...props} />
    </Suspense>
  );
}
