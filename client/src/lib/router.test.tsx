import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Navigate, NavLink, Route, StaticRouter, Switch, useLocation, useParams } from './router';

const at = (path: string, element: React.ReactNode) =>
  renderToStaticMarkup(<StaticRouter location={path}>{element}</StaticRouter>);

function Where() {
  const { pathname, search, hash, key } = useLocation();
  return <p>{JSON.stringify({ pathname, search, hash, key })}</p>;
}

function Slug() {
  return <p>slug {useParams().slug ?? 'none'}</p>;
}

describe('the app’s router', () => {
  it('marks a section link current at its address and below it, the home link only at home', () => {
    const links = (
      <>
        <NavLink to="/">Home</NavLink>
        <NavLink to="/health">Health</NavLink>
        <NavLink to="/desk" end>
          Members
        </NavLink>
      </>
    );
    expect(at('/health/sleep-debt-reset', links)).toBe(
      '<a href="/">Home</a><a aria-current="page" href="/health">Health</a><a href="/desk">Members</a>',
    );
    expect(at('/', links)).toContain('<a aria-current="page" href="/">Home</a>');
    expect(at('/healthy-eating', links)).not.toContain('aria-current');
    expect(at('/desk', links)).toContain('<a aria-current="page" href="/desk">Members</a>');
    expect(at('/desk/audit', links)).not.toContain('aria-current');
  });

  it('draws the first route that matches, with its parameters, and the last one for the rest', () => {
    const routes = (
      <Switch>
        <Route path="/newsletter/confirm">confirm</Route>
        <Route path="/newsletter/:slug?">
          <Slug />
        </Route>
        <Route>not found</Route>
      </Switch>
    );
    expect(at('/newsletter/confirm', routes)).toBe('confirm');
    expect(at('/newsletter/first-issue', routes)).toBe('<p>slug first-issue</p>');
    expect(at('/newsletter', routes)).toBe('<p>slug none</p>');
    expect(at('/nowhere', routes)).toBe('not found');
  });

  it('reads the address on the server as the browser will on its first render', () => {
    expect(at('/early-access?checkout_session_id=cs_1', <Where />)).toBe(
      `<p>${JSON.stringify({ pathname: '/early-access', search: '?checkout_session_id=cs_1', hash: '', key: 'default' }).replace(/"/g, '&quot;')}</p>`,
    );
  });

  it('draws nothing for a redirect on the server (the server answers moved pages itself)', () => {
    expect(at('/index', <Navigate to="/" />)).toBe('');
  });
});
