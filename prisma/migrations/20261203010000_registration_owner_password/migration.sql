-- A pending registration keeps no password: the address's owner chooses it on the confirm page,
-- never whoever asked. The row remembers which browser asked (for whether its anonymous
-- membership follows), for registrations and sign-in links alike.
-- AlterTable
ALTER TABLE "email_sign_ins" DROP COLUMN "passwordHash",
DROP COLUMN "userId",
ADD COLUMN     "askedBy" UUID;
