import { useEffect, useState } from 'react';

/**
 * The token of a link from a mail. It rides in the fragment, which browsers never send to a
 * server or a log; once read, it leaves the address bar (and the history a shared screen shows).
 * Read without side effects: React may render (and so read) more than once before it commits.
 */
export function useTokenFromAddress(): string | null {
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token'));
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  return token;
}
