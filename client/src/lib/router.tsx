import { useEffect, type ComponentProps } from 'react';
import {
  Link as RouterLink,
  useLocation as useRouterLocation,
  useNavigate as useRouterNavigate,
  useNavigationType as useRouterNavigationType,
} from 'react-router-dom';

// The app's routing: react-router 7 in its declarative mode (docs/decisions/0020-react-router.md),
// a <BrowserRouter> in the browser and a <StaticRouter> on the server, with no data router (no
// screen needs loaders or actions, and it would cost the first load about 15 KB). Route tables are
// <Routes> of <Route path element>, or the same as objects (`useRoutes`: the app's screens,
// app/screens.tsx): react-router ranks them, the most specific path wins, and a `*` route takes
// what no other does. Screens import routing from here only, so what this module
// narrows (links without framework-mode markers, links that mark the current page, redirects that
// stay quiet on the server) holds everywhere.

export {
  BrowserRouter,
  Outlet,
  Route,
  Routes,
  StaticRouter,
  useParams,
  useRoutes,
  useSearchParams,
  type RouteObject,
} from 'react-router-dom';

/** How the reader arrived at the current entry: a link (PUSH), a replacement, or Back/Forward. */
export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

export function useNavigationType(): NavigationType {
  return useRouterNavigationType();
}

export interface Location {
  pathname: string;
  /** `?…`, or empty. */
  search: string;
  /** `#…`, or empty (always empty while drawing on the server). */
  hash: string;
  /** The history entry's state (`navigate(to, { state })`). */
  state: unknown;
  /** Changes with every navigation, to the same address too: state that belongs to one visit. */
  key: string;
}

/** Where the reader is, read the way the screens need it. */
export function useLocation(): Location {
  return useRouterLocation();
}

export type NavigateTo = string | { pathname?: string; search?: string };

/** Goes to an address of the site, adding a history entry unless `replace`. */
export function useNavigate(): (
  to: NavigateTo,
  options?: { replace?: boolean; state?: unknown },
) => void {
  return useRouterNavigate();
}

export type LinkProps = Omit<ComponentProps<'a'>, 'href'> & {
  to: string;
  replace?: boolean;
  state?: unknown;
};

/**
 * A link within the site: followed without reloading the page. Without `data-discover`, which
 * react-router's framework mode reads to find routes lazily: this app declares all of its own.
 */
export function Link(props: LinkProps) {
  return <RouterLink discover="none" {...props} />;
}

/**
 * A link that says when it leads to the current page (`aria-current="page"`, which the styles
 * show): at that address or below it, or only at it with `end` (always for the home page). Not
 * react-router's NavLink, which also adds an `active` class the styles do not use.
 */
export function NavLink({ to, end = false, ...props }: LinkProps & { end?: boolean }) {
  const { pathname } = useRouterLocation();
  const current = pathname === to || (!end && to !== '/' && pathname.startsWith(`${to}/`));
  return <Link to={to} aria-current={current ? 'page' : undefined} {...props} />;
}

/**
 * Replaces the address with `to` once drawn (a moved page). On the server it draws nothing: the
 * server answers a moved address itself, and react-router's own <Navigate> would warn there.
 */
export function Navigate({ to }: { to: string }) {
  const navigate = useRouterNavigate();
  useEffect(() => {
    void navigate(to, { replace: true });
  }, [navigate, to]);
  return null;
}
