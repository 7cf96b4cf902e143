import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  StaticRouter,
  useLocation,
  useParams,
} from './router';

const at = (path: string, element: React.ReactNode) =>
  renderToStaticMarkup(<StaticRouter location={path}>{element}</StaticRouter>);

function Where() {
  const { pathname, search, hash, key } = useLocation();
  return <p>{JSON.stringify({ pathname, search, hash, key })}</p>;
}

function Slug() {
  return <p>slug {useParams().slug ?? 'none'}</p>;
}

function Member() {
  return <p>member {useParams().id}</p>;
}

/** An area's routes (as the desk's), relative to the address its parent route matched. */
function DeskRoutes() {
  return (
    <Routes>
      <Route index element="members" />
      <Route path="members/:id" element={<Member />} />
      <Route path="*" element="desk: not found" />
    </Routes>
  );
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

  it('draws the route that names the address best, whatever their order, with its parameters, and the catch-all for the rest', () => {
    const routes = (
      <Routes>
        <Route path="/newsletter/:slug?" element={<Slug />} />
        <Route path="/newsletter/confirm" element="confirm" />
        <Route path="*" element="not found" />
      </Routes>
    );
    expect(at('/newsletter/confirm', routes)).toBe('confirm');
    expect(at('/newsletter/first-issue', routes)).toBe('<p>slug first-issue</p>');
    expect(at('/newsletter', routes)).toBe('<p>slug none</p>');
    expect(at('/nowhere', routes)).toBe('not found');
  });

  it('draws a screen inside its layout, and an area’s own routes below the address it is given', () => {
    const routes = (
      <Routes>
        <Route path="/desk/*" element={<DeskRoutes />} />
        <Route
          element={
            <main>
              <Outlet />
            </main>
          }
        >
          <Route path="/" element="home" />
          <Route path="*" element="not found" />
        </Route>
      </Routes>
    );
    expect(at('/', routes)).toBe('<main>home</main>');
    expect(at('/nowhere', routes)).toBe('<main>not found</main>');
    expect(at('/desk', routes)).toBe('members');
    expect(at('/desk/members/m1', routes)).toBe('<p>member m1</p>');
    expect(at('/desk/nowhere', routes)).toBe('desk: not found');
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
