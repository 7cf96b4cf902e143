/**
 * The sender when MAIL_FROM is not set: the publication's name as the display name, quoted for
 * the header (RFC 5322), before an address that takes no replies.
 */
export const senderNamed = (name: string) =>
  `"${name.replace(/["\\\r\n]/g, (c) => (c === '\r' || c === '\n' ? ' ' : `\\${c}`))}" <no-reply@localhost>`;
