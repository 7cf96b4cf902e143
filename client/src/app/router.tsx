import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router-dom';
import { Layout } from '../components/layout/layout';
import { paths, placeholderPages, screensInProgress } from './paths';
import { HomeRoute } from './routes/home';
import { NotFoundRoute } from './routes/not-found';

/** Screens other than the home page load on demand, keeping the first load small. */
const lazyScreen = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const titlePage = (page: { path: string; title: string }) => ({
  path: page.path,
  handle: { title: page.title },
  lazy: lazyScreen(() => import('./routes/title-page')),
});

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: paths.home, element: <HomeRoute /> },
      { path: '/index', element: <Navigate to={paths.home} replace /> },
      { path: '/landing-page', element: <Navigate to={paths.earlyAccess} replace /> },
      { path: '/register-page', element: <Navigate to={paths.register} replace /> },
      { path: '/profile-page', element: <Navigate to={paths.account} replace /> },
      ...placeholderPages.map(titlePage),
      ...screensInProgress.map(titlePage),
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
]);
