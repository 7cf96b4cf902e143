/** Every client route in one table: components link through these, never through string literals. */
export const paths = {
  home: '/',
  health: '/health',
  wealth: '/wealth',
  directAction: '/direct-action',
  collective: '/collective',
  empowerment: '/empowerment',
  earlyAccess: '/early-access',
  register: '/register',
  login: '/login',
  account: '/account',
  resetPassword: '/reset-password',
  confirmEmail: '/confirm-email',
  perks: '/perks',
  homeBuying: '/home-buying',
  studentDebtRelief: '/student-debt-relief',
  workAndJobs: '/work-and-jobs',
  media: '/media',
  legalResources: '/legal-resources',
  terms: '/terms',
} as const;

/** The seed's rule for a category's path: lower-case, first space to a hyphen. */
export function categoryPath(category: string): string {
  return `/${category.toLowerCase().replace(' ', '-')}`;
}

/** The section links of the navbar, in the seed's order. */
export const sectionLinks = [
  { to: paths.health, label: 'Health' },
  { to: paths.wealth, label: 'Wealth' },
  { to: paths.directAction, label: 'Direct Action' },
  { to: paths.collective, label: 'Collective Action' },
  { to: paths.empowerment, label: 'Empowerment' },
] as const;

/** Pages that show only their title, as in the seed. */
export const placeholderPages = [
  { path: paths.homeBuying, title: 'Home Buying' },
  { path: paths.studentDebtRelief, title: 'Student Debt Relief' },
  { path: paths.workAndJobs, title: 'Work and Jobs' },
  { path: paths.media, title: 'Media' },
  { path: paths.legalResources, title: 'Legal Resources' },
  { path: paths.terms, title: 'Terms' },
] as const;

/** The old UI-kit demo's addresses and where they lead now (PRODUCT.md decision 6). */
export const redirects = [
  { from: '/index', to: paths.home },
  { from: '/landing-page', to: paths.earlyAccess },
  { from: '/register-page', to: paths.register },
  { from: '/profile-page', to: paths.account },
] as const;
