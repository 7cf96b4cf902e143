import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import {
  isSectionScreen,
  pathInSection,
  SCREENS,
  screenLists,
  type Screen,
  type ScreenName,
} from '../../../contract/screens';
import type { SiteSection } from '../../../contract/sections';
import { redirects } from '../config/paths';
import { Navigate, Outlet, type RouteObject } from '../lib/router';
import { Layout } from './layout/layout';
import { HomeRoute } from './routes/home';

// The home page is in the first chunk; every other screen, and each article body, loads on demand.
const ArticleListRoute = lazy(() => import('./routes/article-list'));
const ArticleRoute = lazy(() => import('./routes/article'));
const DirectActionRoute = lazy(() => import('./routes/direct-action'));
const CollectiveRoute = lazy(() => import('./routes/collective'));
const EmpowermentRoute = lazy(() => import('./routes/empowerment'));
const ContentPageRoute = lazy(() => import('./routes/content-page'));
const AccountPage = lazy(() => import('../features/account/account-page'));
const VerifyAddressPage = lazy(() => import('../features/account/verify-address-page'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));
const NewsletterChoice = lazy(() => import('../features/newsletter/newsletter-choice'));
const DeskApp = lazy(() => import('../features/desk/desk-app'));

/**
 * What the page the server sent says of the desk (`<html data-desk>`): `desk` for staff,
 * `verify-address` for staff whose address is not proven yet; null for anyone else, who got the
 * not-found page there and must hydrate it as that.
 */
export type DeskMark = 'desk' | 'verify-address' | null;

interface ScreenContext {
  screen: Screen;
  /**
   * For a screen of each section: the section's name (for one of articles, its articles'
   * `category`; for a special kind's, the screen's title).
   */
  category: string;
  desk: DeskMark;
}

/** A screen that is one page, the same wherever it is: loaded when it is first drawn. */
function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  const Page = lazy(load);
  return () => <Page />;
}

/** Each screen of the table (contract/screens.ts) as it is drawn; null: no route here. */
const VIEWS: Record<ScreenName, (context: ScreenContext) => ReactElement | null> = {
  home: () => <HomeRoute />,
  articleList: ({ category }) => <ArticleListRoute category={category} />,
  article: ({ category }) => <ArticleRoute category={category} />,
  directAction: ({ category }) => <DirectActionRoute name={category} />,
  collective: ({ category }) => <CollectiveRoute name={category} />,
  empowerment: ({ category }) => <EmpowermentRoute name={category} />,
  contentPage: ({ screen }) => <ContentPageRoute slug={screen.text ?? ''} />,
  earlyAccess: lazyPage(() => import('../features/payments/early-access-page')),
  gift: lazyPage(() => import('../features/payments/gift-page')),
  giftClaim: lazyPage(() => import('../features/account/gift-claim-page')),
  payItForward: lazyPage(() => import('../features/payments/pay-it-forward-page')),
  register: lazyPage(() => import('../features/account/register-page')),
  registerConfirm: lazyPage(() => import('../features/account/register-confirm-page')),
  login: lazyPage(() => import('../features/account/login-page')),
  signInLink: lazyPage(() => import('../features/account/sign-in-link-page')),
  account: () => <AccountPage newsletter={<NewsletterChoice />} />,
  resetPassword: lazyPage(() => import('../features/account/reset-password-page')),
  confirmEmail: lazyPage(() => import('../features/account/confirm-email-page')),
  perks: lazyPage(() => import('../features/perks/perks-page')),
  newsletterConfirm: lazyPage(() => import('../features/newsletter/confirm-subscription-page')),
  newsletterUnsubscribe: lazyPage(() => import('../features/newsletter/unsubscribe-page')),
  search: lazyPage(() => import('./routes/search')),
  topics: lazyPage(() => import('./routes/topics')),
  topic: lazyPage(() => import('./routes/topic')),
  author: lazyPage(() => import('./routes/author')),
  archive: lazyPage(() => import('./routes/archive')),
  newsletter: lazyPage(() => import('./routes/newsletter')),
  desk: ({ desk }) =>
    desk === 'desk' ? (
      <Suspense fallback={null}>
        <DeskApp notFound={<NotFoundRoute />} />
      </Suspense>
    ) : desk === 'verify-address' ? (
      <Layout>
        <VerifyAddressPage />
      </Layout>
    ) : null,
  page: lazyPage(() => import('./routes/standalone-page')),
};

/** The screens that draw their own frame rather than the site's navbar and footer. */
const OWN_FRAME: ReadonlySet<ScreenName> = new Set(['desk']);

/**
 * The app's routes, from the screens table: a route per row (a screen of each section once per
 * section that lists its kind, wherever the publisher put it: none for a kind no section lists),
 * inside the site's layout but for the desk; the old addresses that redirect; and the not-found
 * page for what no route names.
 */
export function appRoutes(sections: readonly SiteSection[], desk: DeskMark): RouteObject[] {
  const framed: RouteObject[] = [];
  const ownFrame: RouteObject[] = [];
  for (const screen of SCREENS) {
    const lists = screenLists(screen);
    // A special kind has one section: the first of its kind, as the server matches it.
    const mine = sections.filter((section) => section.lists === lists);
    const places = isSectionScreen(screen)
      ? (lists === 'articles' ? mine : mine.slice(0, 1)).map((section) => ({
          path: pathInSection(screen.path, section.slug),
          category: section.name,
        }))
      : [{ path: screen.path, category: '' }];
    for (const { path, category } of places) {
      const element = VIEWS[screen.name]({ screen, category, desk });
      if (!element) continue;
      (OWN_FRAME.has(screen.name) ? ownFrame : framed).push({
        path,
        element,
        handle: screen.name,
      });
    }
  }
  return [
    ...ownFrame,
    {
      element: (
        <Layout>
          <Outlet />
        </Layout>
      ),
      children: [
        ...framed,
        ...redirects.map(({ from, to }) => ({ path: from, element: <Navigate to={to} /> })),
        { path: '*', element: <NotFoundRoute /> },
      ],
    },
  ];
}
