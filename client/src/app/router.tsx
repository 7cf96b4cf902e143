import { lazy, Suspense } from 'react';
import { Navigate, Outlet, Route, Routes } from '../lib/router';
import { Layout } from './layout/layout';
import { AUTHORS_PATH, contentPages, paths, redirects } from '../config/paths';
import { sectionPath } from '../../../contract/sections';
import { useSiteNavigation } from '../lib/site-navigation';
import { HomeRoute } from './routes/home';

// The home page is in the first chunk; every other screen, and each article body, loads on demand.
// Plain <Routes> rather than a data router (docs/decisions/0020-react-router.md): the data router
// costs about 15 KB gzip of the first load (tests/bench/client-size.ts), and no screen needs
// loaders or actions.
const ArticleListRoute = lazy(() => import('./routes/article-list'));
const ArticleRoute = lazy(() => import('./routes/article'));
const DirectActionRoute = lazy(() => import('./routes/direct-action'));
const CollectiveRoute = lazy(() => import('./routes/collective'));
const EmpowermentRoute = lazy(() => import('./routes/empowerment'));
const ContentPageRoute = lazy(() => import('./routes/content-page'));
const StandalonePageRoute = lazy(() => import('./routes/standalone-page'));
const EarlyAccessPage = lazy(() => import('../features/payments/early-access-page'));
const GiftPage = lazy(() => import('../features/payments/gift-page'));
const GiftClaimPage = lazy(() => import('../features/account/gift-claim-page'));
const PayItForwardPage = lazy(() => import('../features/payments/pay-it-forward-page'));
const RegisterPage = lazy(() => import('../features/account/register-page'));
const LoginPage = lazy(() => import('../features/account/login-page'));
const AccountPage = lazy(() => import('../features/account/account-page'));
const ResetPasswordPage = lazy(() => import('../features/account/reset-password-page'));
const ConfirmEmailPage = lazy(() => import('../features/account/confirm-email-page'));
const RegisterConfirmPage = lazy(() => import('../features/account/register-confirm-page'));
const SignInLinkPage = lazy(() => import('../features/account/sign-in-link-page'));
const VerifyAddressPage = lazy(() => import('../features/account/verify-address-page'));
const PerksPage = lazy(() => import('../features/perks/perks-page'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));
const ConfirmSubscriptionPage = lazy(
  () => import('../features/newsletter/confirm-subscription-page'),
);
const NewsletterRoute = lazy(() => import('./routes/newsletter'));
const UnsubscribePage = lazy(() => import('../features/newsletter/unsubscribe-page'));
const NewsletterChoice = lazy(() => import('../features/newsletter/newsletter-choice'));
const SearchRoute = lazy(() => import('./routes/search'));
const TopicsRoute = lazy(() => import('./routes/topics'));
const TopicRoute = lazy(() => import('./routes/topic'));
const AuthorRoute = lazy(() => import('./routes/author'));
const DeskApp = lazy(() => import('../features/desk/desk-app'));

/**
 * The server marks the page it sends staff at /desk (`<html data-desk>`); to anyone else it sends
 * the not-found page, which must hydrate as the not-found page. Never while prerendering.
 */
const deskMark = () =>
  typeof document !== 'undefined' ? document.documentElement.getAttribute('data-desk') : null;
const isDeskPage = () => deskMark() === '';
/** Staff whose address is not proven get `data-desk="verify-address"`: a page to verify it. */
const isDeskVerifyPage = () => deskMark() === 'verify-address';

export function AppRoutes() {
  // Each section of articles has its list and its articles' pages, wherever the publisher put it.
  const articleSections = useSiteNavigation().sections.filter(
    (section) => section.lists === 'articles',
  );
  return (
    <Routes>
      {isDeskPage() && (
        <Route
          path={`${paths.desk}/*`}
          element={
            <Suspense fallback={null}>
              <DeskApp notFound={<NotFoundRoute />} />
            </Suspense>
          }
        />
      )}
      <Route
        element={
          <Layout>
            <Outlet />
          </Layout>
        }
      >
        <Route path={paths.home} element={<HomeRoute />} />
        {redirects.map(({ from, to }) => (
          <Route key={from} path={from} element={<Navigate to={to} />} />
        ))}
        {articleSections.map((section) => [
          <Route
            key={section.id}
            path={sectionPath(section)}
            element={<ArticleListRoute category={section.name} />}
          />,
          <Route
            key={`${section.id}/:slug`}
            path={`${sectionPath(section)}/:slug`}
            element={<ArticleRoute category={section.name} />}
          />,
        ])}
        <Route path={paths.directAction} element={<DirectActionRoute />} />
        <Route path={paths.collective} element={<CollectiveRoute />} />
        <Route path={paths.empowerment} element={<EmpowermentRoute />} />
        {contentPages.map((page) => (
          <Route key={page.path} path={page.path} element={<ContentPageRoute slug={page.slug} />} />
        ))}
        <Route path={paths.earlyAccess} element={<EarlyAccessPage />} />
        <Route path={paths.gift} element={<GiftPage />} />
        <Route path={paths.giftClaim} element={<GiftClaimPage />} />
        <Route path={paths.payItForward} element={<PayItForwardPage />} />
        <Route path={paths.register} element={<RegisterPage />} />
        <Route path={paths.registerConfirm} element={<RegisterConfirmPage />} />
        <Route path={paths.login} element={<LoginPage />} />
        <Route path={paths.signInLink} element={<SignInLinkPage />} />
        {isDeskVerifyPage() && <Route path={paths.desk} element={<VerifyAddressPage />} />}
        <Route path={paths.account} element={<AccountPage newsletter={<NewsletterChoice />} />} />
        <Route path={paths.resetPassword} element={<ResetPasswordPage />} />
        <Route path={paths.confirmEmail} element={<ConfirmEmailPage />} />
        <Route path={paths.perks} element={<PerksPage />} />
        <Route path={paths.newsletterConfirm} element={<ConfirmSubscriptionPage />} />
        <Route path={paths.newsletterUnsubscribe} element={<UnsubscribePage />} />
        <Route path={paths.search} element={<SearchRoute />} />
        <Route path={paths.topics} element={<TopicsRoute />} />
        <Route path={`${paths.topics}/:slug`} element={<TopicRoute />} />
        <Route path={`${AUTHORS_PATH}/:slug`} element={<AuthorRoute />} />
        <Route path={`${paths.newsletter}/:slug?`} element={<NewsletterRoute />} />
        {/* A page of its own (`/about`); one no page has is the 404 page. Any named route wins. */}
        <Route path="/:slug" element={<StandalonePageRoute />} />
        {/* What no route above names: the site's 404 page. */}
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}
