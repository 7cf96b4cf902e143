import type { Prisma } from '../generated/prisma/client.js';

/**
 * A newsletter sign-up made with the address before it had an account becomes the account's, once
 * the address is proven (so the desk sees it with the member). Never a second row for one user.
 */
export async function claimNewsletterSignUp(
  tx: Prisma.TransactionClient,
  userId: string,
  email: string,
): Promise<void> {
  if (await tx.newsletterSubscriber.findUnique({ where: { userId }, select: { id: true } })) return;
  await tx.newsletterSubscriber.updateMany({ where: { email, userId: null }, data: { userId } });
}

/**
 * The owner used a link or code mailed to the account's address
 * (docs/decisions/0014-proven-addresses.md): it is proven, and what was waiting for it (a
 * newsletter sign-up) becomes the account's.
 */
export async function proveAddress(
  tx: Prisma.TransactionClient,
  userId: string,
  email: string,
): Promise<void> {
  await tx.user.update({ where: { id: userId }, data: { emailVerifiedAt: new Date() } });
  await claimNewsletterSignUp(tx, userId, email);
}
