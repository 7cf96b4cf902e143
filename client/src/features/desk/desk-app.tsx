import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, NavLink, Route, Routes } from '../../lib/router';
import type { DeskStaff } from '../../../../contract/desk-api';
import { ApiError } from '../../lib/api-client';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { fetchStaff } from './desk-api';
import deskCss from './desk.css?inline';
import deskScreensCss from './desk-screens.css?inline';
import deskMailCss from './desk-mail.css?inline';
import { MemberPage } from './member/member-page';
import { MembersPage } from './members-page';
import { AuditPage } from './audit-page';
import { CommentsPage } from './comments-page';
import { PostsPage } from './posts-page';
import { TopicsPage } from './topics-page';
import { SectionsPage } from './sections-page';
import { HomePage } from './home-page';
import { SettingsPage } from './settings-page';
import { RedirectsPage } from './redirects-page';
import { PlansPage } from './plans-page';
import { TiersPage } from './tiers-page';
import { OffersPage } from './offers-page';
import { GiftsPage } from './gifts-page';
import { SeatsPage } from './seats-page';
import { ImportsPage } from './imports-page';
import { IntegrationsPage } from './integrations-page';
import { MailboxPage } from './mailbox-page';
import { ProfilePage } from './profile-page';
import { describeError, useDeskData } from './use-desk-data';
import { DeskMenu } from './desk-menu';
import { formatDateTime } from './desk-format';

// The dashboard brings the charting library, the editor its own: each loaded only when opened.
const DashboardPage = lazy(() => import('./dashboard-page'));
const AnalyticsPage = lazy(() => import('./analytics-page'));
const PostEditorPage = lazy(() => import('./editor/post-editor-page'));

/**
 * The publisher's desk (/desk): members, one member's record and actions, the posts, the dashboard
 * and the audit log, for staff only (writers: the posts, their analytics and profile). Its own
 * screen, apart from the public site's layout (no navbar, no paywall), never prerendered, never
 * indexed. Its styles come with its code, so the public pages' one stylesheet does not grow. Its
 * routes' paths are below /desk (AppRoutes sends /desk/* here).
 */
export default function DeskApp({ notFound }: { notFound: ReactNode }) {
  const [staff] = useDeskData('staff', () => fetchStaff());
  if (staff.state === 'error') {
    if (staff.error instanceof ApiError && staff.error.status === 404) return <>{notFound}</>;
    return (
      <DeskFrame staff={null}>
        <p role="alert">{describeError(staff.error)}</p>
      </DeskFrame>
    );
  }
  if (staff.state === 'loading') return <DeskFrame staff={null}>{null}</DeskFrame>;
  if (staff.data.role === 'writer') {
    // Members and money are not a writer's: their part of the desk is the posts.
    return (
      <DeskFrame staff={staff.data}>
        <Suspense fallback={<p className="desk__loading">Loading…</p>}>
          <Routes>
            {/* `posts/new` too: the editor of a post not saved yet. */}
            <Route path="posts/:id" element={<PostEditorPage staff={staff.data} />} />
            <Route path="posts" element={<PostsPage staff={staff.data} />} />
            <Route path="analytics" element={<AnalyticsPage staff={staff.data} />} />
            <Route path="profile" element={<ProfilePage />} />
            {/* A writer lands on the posts list, at its own address (its filters live there). */}
            <Route path="*" element={<Navigate to="/desk/posts" />} />
          </Routes>
        </Suspense>
      </DeskFrame>
    );
  }
  return (
    <DeskFrame staff={staff.data}>
      <Suspense fallback={<p className="desk__loading">Loading…</p>}>
        <Routes>
          <Route index element={<MembersPage />} />
          <Route path="members/:id" element={<MemberPage staff={staff.data} />} />
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="analytics" element={<AnalyticsPage staff={staff.data} />} />
          <Route path="audit" element={<AuditPage />} />
          <Route path="posts" element={<PostsPage staff={staff.data} />} />
          <Route path="comments" element={<CommentsPage />} />
          {/* `posts/new` too: the editor of a post not saved yet. */}
          <Route path="posts/:id" element={<PostEditorPage staff={staff.data} />} />
          <Route path="topics" element={<TopicsPage staff={staff.data} />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="plans" element={<PlansPage staff={staff.data} />} />
          <Route path="tiers" element={<TiersPage staff={staff.data} />} />
          <Route path="offers" element={<OffersPage staff={staff.data} />} />
          <Route path="gifts" element={<GiftsPage staff={staff.data} />} />
          <Route path="seats" element={<SeatsPage staff={staff.data} />} />
          {staff.data.role === 'owner' && <Route path="imports" element={<ImportsPage />} />}
          {staff.data.role === 'owner' && (
            <Route path="integrations" element={<IntegrationsPage staff={staff.data} />} />
          )}
          {staff.data.role === 'owner' && (
            <Route path="sections" element={<SectionsPage staff={staff.data} />} />
          )}
          {staff.data.role === 'owner' && <Route path="home" element={<HomePage />} />}
          {staff.data.role === 'owner' && <Route path="settings" element={<SettingsPage />} />}
          {staff.data.role === 'owner' && (
            <Route path="redirects" element={<RedirectsPage staff={staff.data} />} />
          )}
          {staff.data.role === 'owner' && staff.data.mailbox && (
            <Route path="mailbox" element={<MailboxPage />} />
          )}
          <Route path="*" element={notFound} />
        </Routes>
      </Suspense>
    </DeskFrame>
  );
}

const ROLE_LABELS: Record<DeskStaff['role'], string> = {
  owner: 'owner',
  editor: 'editor (members read-only)',
  writer: 'writer',
};

function DeskFrame({ staff, children }: { staff: DeskStaff | null; children: ReactNode }) {
  useDocumentHead('Desk');
  const siteName = useSiteName();
  return (
    <div className="desk">
      <style>{deskCss + deskScreensCss + deskMailCss}</style>
      {/* Not for search engines, whoever reaches it (the server also says so in a header). */}
      <meta name="robots" content="noindex, nofollow" />
      <header className="desk__bar">
        <a className="desk__brand" href="/">
          {siteName} <span>desk</span>
        </a>
        <DeskMenu>
          {staff?.role === 'writer' ? (
            <>
              <NavLink to="/desk/posts">Posts</NavLink>
              <NavLink to="/desk/analytics">Analytics</NavLink>
              <NavLink to="/desk/profile">Profile</NavLink>
            </>
          ) : (
            <>
              <NavLink to="/desk" end>
                Members
              </NavLink>
              <NavLink to="/desk/posts">Posts</NavLink>
              <NavLink to="/desk/comments">Comments</NavLink>
              <NavLink to="/desk/topics">Topics</NavLink>
              {staff?.role === 'owner' && <NavLink to="/desk/sections">Sections</NavLink>}
              {staff?.role === 'owner' && <NavLink to="/desk/home">Home page</NavLink>}
              {staff?.role === 'owner' && <NavLink to="/desk/settings">Settings</NavLink>}
              {staff?.role === 'owner' && <NavLink to="/desk/redirects">Redirects</NavLink>}
              <NavLink to="/desk/tiers">Tiers</NavLink>
              <NavLink to="/desk/plans">Plans</NavLink>
              <NavLink to="/desk/offers">Offers</NavLink>
              <NavLink to="/desk/gifts">Gifts</NavLink>
              <NavLink to="/desk/seats">Seats</NavLink>
              <NavLink to="/desk/dashboard">Dashboard</NavLink>
              <NavLink to="/desk/analytics">Analytics</NavLink>
              <NavLink to="/desk/audit">Audit log</NavLink>
              <NavLink to="/desk/profile">Profile</NavLink>
              {staff?.role === 'owner' && <NavLink to="/desk/imports">Import</NavLink>}
              {staff?.role === 'owner' && <NavLink to="/desk/integrations">Integrations</NavLink>}
              {staff?.role === 'owner' && staff.mailbox && (
                <NavLink to="/desk/mailbox">Mailbox</NavLink>
              )}
            </>
          )}
        </DeskMenu>
        {staff && (
          <p className="desk__who">
            {staff.email} · {ROLE_LABELS[staff.role]}
          </p>
        )}
      </header>
      {staff && <ChangeNotice staff={staff} />}
      <main id="main" className="desk__main">
        {children}
      </main>
    </div>
  );
}

/** Why this staff member cannot change anything now, if they cannot. */
function ChangeNotice({ staff }: { staff: DeskStaff }) {
  if (staff.canChange) {
    return staff.changesAllowedUntil ? (
      <p className="desk__notice desk__notice--quiet">
        Changes allowed until {formatDateTime(staff.changesAllowedUntil)} (12 hours after you signed
        in).
      </p>
    ) : null;
  }
  if (staff.role === 'writer') return null;
  if (staff.role === 'editor') {
    return (
      <p className="desk__notice">
        You can look at members and payments here but change nothing: editors are read-only on them
        (you publish posts).
      </p>
    );
  }
  return (
    <p className="desk__notice">
      To change anything, <a href="/login">sign in again</a> (changes need a sign-in within the last
      12 hours), then come back to the desk.
    </p>
  );
}
