import { lazy, Suspense } from 'react';
import { Navigate, Route, Switch } from '../lib/router';
import { Layout } from './layout/layout';
import { categoryPath, contentPages, paths, redirects } from '../config/paths';
import { HomeRoute } from './routes/home';

// The home page is in the first chunk; every other screen, and each article body, loads on demand.
// wouter's <Switch> (docs/decisions/0018-router.md): react-router cost about 12 KB gzip of the first load
// (tests/bench/client-size.ts), and no screen needs loaders or actions.
const ArticleListRoute = lazy(() => import('./routes/article-list'));
const ArticleRoute = lazy(() => import('./routes/article'));
const DirectActionRoute = lazy(() => import('./routes/direct-action'));
const CollectiveRoute = lazy(() => import('./routes/collective'));
const EmpowermentRoute = lazy(() => import('./routes/empowerment'));
const ContentPageRoute = lazy(() => import('./routes/content-page'));
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

/** Every address under /desk (the desk's own routes are in desk-app.tsx). */
const DESK_PATHS = new RegExp(`^${paths.desk}(?:/.*)?$`);

export function AppRoutes() {
  return (
    <Switch>
      {isDeskPage() && (
        <Route path={DESK_PATHS}>
          <Suspense fallback={null}>
            <DeskApp notFound={<NotFoundRoute />} />
          </Suspense>
        </Route>
      )}
      <Route>
        <Layout>
          {/* First match wins: each address below names one screen. */}
          <Switch>
            <Route path={paths.home}>
              <HomeRoute />
            </Route>
            {redirects.map(({ from, to }) => (
              <Route key={from} path={from}>
                <Navigate to={to} />
              </Route>
            ))}
            {(['Health', 'Wealth'] as const).map((category) => [
              <Route key={category} path={categoryPath(category)}>
                <ArticleListRoute category={category} />
              </Route>,
              <Route key={`${category}/:slug`} path={`${categoryPath(category)}/:slug`}>
                <ArticleRoute category={category} />
              </Route>,
            ])}
            <Route path={paths.directAction}>
              <DirectActionRoute />
            </Route>
            <Route path={paths.collective}>
              <CollectiveRoute />
            </Route>
            <Route path={paths.empowerment}>
              <EmpowermentRoute />
            </Route>
            {contentPages.map((page) => (
              <Route key={page.path} path={page.path}>
                <ContentPageRoute slug={page.slug} />
              </Route>
            ))}
            <Route path={paths.earlyAccess}>
              <EarlyAccessPage />
            </Route>
            <Route path={paths.gift}>
              <GiftPage />
            </Route>
            <Route path={paths.giftClaim}>
              <GiftClaimPage />
            </Route>
            <Route path={paths.payItForward}>
              <PayItForwardPage />
            </Route>
            <Route path={paths.register}>
              <RegisterPage />
            </Route>
            <Route path={paths.registerConfirm}>
              <RegisterConfirmPage />
            </Route>
            <Route path={paths.login}>
              <LoginPage />
            </Route>
            <Route path={paths.signInLink}>
              <SignInLinkPage />
            </Route>
            {isDeskVerifyPage() && (
              <Route path={paths.desk}>
                <VerifyAddressPage />
              </Route>
            )}
            <Route path={paths.account}>
              <AccountPage newsletter={<NewsletterChoice />} />
            </Route>
            <Route path={paths.resetPassword}>
              <ResetPasswordPage />
            </Route>
            <Route path={paths.confirmEmail}>
              <ConfirmEmailPage />
            </Route>
            <Route path={paths.perks}>
              <PerksPage />
            </Route>
            <Route path={paths.newsletterConfirm}>
              <ConfirmSubscriptionPage />
            </Route>
            <Route path={paths.newsletterUnsubscribe}>
              <UnsubscribePage />
            </Route>
            <Route path={paths.search}>
              <SearchRoute />
            </Route>
            <Route path={paths.topics}>
              <TopicsRoute />
            </Route>
            <Route path={`${paths.topics}/:slug`}>
              <TopicRoute />
            </Route>
            <Route path={`${paths.newsletter}/:slug?`}>
              <NewsletterRoute />
            </Route>
            <Route>
              <NotFoundRoute />
            </Route>
          </Switch>
        </Layout>
      </Route>
    </Switch>
  );
}
