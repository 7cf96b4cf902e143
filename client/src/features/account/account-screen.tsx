import type { ReactNode } from 'react';
import { PageMasthead } from '../../components/page-masthead';
import './account.css';

/** The frame of the account pages: the dark masthead with the title, then a narrow column. */
export function AccountScreen({
  title,
  lede,
  children,
}: {
  title: string;
  lede?: string;
  children: ReactNode;
}) {
  return (
    <>
      <PageMasthead eyebrow="Your account" title={title} lede={lede} />
      <div className="page-body account-screen">{children}</div>
    </>
  );
}
