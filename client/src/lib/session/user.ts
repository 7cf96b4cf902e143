/** The user as the server's HTTP contract shows it. */
export interface User {
  id: string;
  email: string | null;
  isSubscribed: boolean;
  membership: null | {
    plan: 'one-time' | 'subscription';
    status: string;
    expiresAt: string;
  };
}
