import type { Plugin } from 'vite';

/**
 * Every page arrives as complete HTML with its stylesheet inline (client/build/prerender.ts): the
 * script only hydrates what is already readable. Marking the entry script and the modules it
 * preloads `fetchpriority="low"` lets the browser fetch the page's images (its largest paint)
 * before them on a slow connection, instead of sharing the bandwidth with about 85 KB of script
 * the reader does not need to start reading.
 */
export function scriptsAfterContentPlugin(): Plugin {
  return {
    name: 'cohort:scripts-after-content',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(
          /<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g,
          '<$1 fetchpriority="low"',
        ),
    },
  };
}
