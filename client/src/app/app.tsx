import { BrowserRouter } from '../lib/router';
import { SessionProvider } from '../lib/session/session-context';
import { AppRoutes } from './router';

export function App() {
  return (
    <SessionProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </SessionProvider>
  );
}
