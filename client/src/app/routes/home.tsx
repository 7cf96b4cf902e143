import { Link } from 'react-router-dom';
import { useDocumentHead } from '../../lib/document-head';
import { paths, sectionLinks } from '../paths';

export function HomeRoute() {
  useDocumentHead(
    'Cohort',
    'Trusted health and money guides, campaigns, boycotts and free learning for Millennials and Gen Z.',
  );
  return (
    <>
      <section className="hero">
        <div className="hero__inner">
          <p className="eyebrow">For Millennials and Gen Z</p>
          <h1>Your generation, better informed.</h1>
          <p className="hero__lede">
            Straight talk on health and money, campaigns you can join, boycotts that worked and free
            courses that lift your skills.
          </p>
          <p>
            <Link className="button button--accent" to={paths.earlyAccess}>
              Get early access: $12 for your first year
            </Link>
          </p>
        </div>
      </section>
      <section className="page">
        <h2>Explore</h2>
        <ul className="section-list">
          {sectionLinks.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>{link.label}</Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
