import { Link } from '../lib/router';
import { paths } from '../config/paths';

/**
 * The two ways in for a visitor without an account: making one (`register`, the page's words for
 * it), or signing in to the one they have.
 */
export function RegisterOrSignIn({ register }: { register: string }) {
  return (
    <p className="button-row">
      <Link className="button button--accent" to={paths.register}>
        {register}
      </Link>
      <Link className="button button--outline" to={paths.login}>
        Sign in
      </Link>
    </p>
  );
}
