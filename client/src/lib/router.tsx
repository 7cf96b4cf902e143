import { useCallback, useSyncExternalStore, type ComponentProps, type ReactNode } from 'react';
import {
  Link as RouteLink,
  Redirect,
  Router,
  useLocation as useRoutePath,
  useSearch,
} from 'wouter';

// The app's routing, on wouter (docs/decisions/0018-router.md): about 2 KB of the first load
// where react-router's declarative mode took 12. Route tables are wouter's `<Switch>` of
// `<Route>`s, first match wins (so the specific paths come before the general ones). This module
// adds what the screens read from react-router and wouter leaves out: a key and a type for each
// navigation, the history entry's state and the hash, and links that say which page is the
// current one.

export { Route, Switch, useParams, useSearchParams } from 'wouter';

/** How the reader arrived at the current entry: a link (PUSH), a replacement, or Back/Forward. */
export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

interface Navigation {
  /** Changes with every navigation, to the same address too: state that belongs to one visit. */
  key: string;
  type: NavigationType;
}

const FIRST: Navigation = { key: 'default', type: 'POP' };
let navigation = FIRST;
const listeners = new Set<() => void>();

// wouter's browser location announces pushState and replaceState as events of those names.
if (typeof window !== 'undefined') {
  let count = 0;
  const events: [string, NavigationType][] = [
    ['popstate', 'POP'],
    ['pushState', 'PUSH'],
    ['replaceState', 'REPLACE'],
  ];
  for (const [event, type] of events) {
    window.addEventListener(event, () => {
      count += 1;
      navigation = { key: String(count), type };
      for (const listener of listeners) listener();
    });
  }
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

function useNavigation(): Navigation {
  return useSyncExternalStore(
    subscribe,
    () => navigation,
    () => FIRST,
  );
}

export function useNavigationType(): NavigationType {
  return useNavigation().type;
}

export interface Location {
  pathname: string;
  /** `?…`, or empty. */
  search: string;
  /** `#…`, or empty (always empty while drawing on the server). */
  hash: string;
  /** The history entry's state (`navigate(to, { state })`). */
  state: unknown;
  key: string;
}

const currentHash = () => window.location.hash;
const noHash = () => '';
const currentState = (): unknown => window.history.state;
const noState = () => null;

/** Where the reader is, read the way the screens need it. */
export function useLocation(): Location {
  const [pathname] = useRoutePath();
  const search = useSearch();
  const { key } = useNavigation();
  const hash = useSyncExternalStore(subscribe, currentHash, noHash);
  const state = useSyncExternalStore(subscribe, currentState, noState);
  return { pathname, search: search ? `?${search}` : '', hash, state, key };
}

export type NavigateTo = string | { pathname?: string; search?: string };

/** Goes to an address of the site, adding a history entry unless `replace`. */
export function useNavigate(): (
  to: NavigateTo,
  options?: { replace?: boolean; state?: unknown },
) => void {
  const [pathname, navigate] = useRoutePath();
  return useCallback(
    (to, options) =>
      navigate(
        typeof to === 'string' ? to : `${to.pathname ?? pathname}${to.search ?? ''}`,
        options,
      ),
    [navigate, pathname],
  );
}

export type LinkProps = Omit<ComponentProps<'a'>, 'href'> & {
  to: string;
  replace?: boolean;
  state?: unknown;
};

/** A link within the site: followed without reloading the page. */
export function Link({ to, ...props }: LinkProps) {
  return <RouteLink to={to} {...props} />;
}

/**
 * A link that says when it leads to the current page (`aria-current="page"`, which the styles
 * show): at that address or below it, or only at it with `end` (always for the home page).
 */
export function NavLink({ to, end = false, ...props }: LinkProps & { end?: boolean }) {
  const [pathname] = useRoutePath();
  const current = pathname === to || (!end && to !== '/' && pathname.startsWith(`${to}/`));
  return <RouteLink to={to} aria-current={current ? 'page' : undefined} {...props} />;
}

/** Replaces the address with `to` once drawn (a moved page). */
export function Navigate({ to }: { to: string }) {
  return <Redirect to={to} replace />;
}

/** The browser's address: the app's router. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  return <Router>{children}</Router>;
}

/** A fixed address, for drawing a page on the server or in a test (it may carry a `?query`). */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  return <Router ssrPath={location}>{children}</Router>;
}
