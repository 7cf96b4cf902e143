import { RouterProvider } from 'react-router-dom';
import { SessionProvider } from '../features/session/session-context';
import { router } from './router';

export function App() {
  return (
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  );
}
