-- Proven addresses (PRODUCT decision 18): an account's address counts once its owner used a link
-- or code mailed to it. Accounts that exist today are not marked proven: nobody proved them. They
-- keep signing in with their password, and become proven the first time they use a mailed link or
-- code (sign-in, password reset, email change).
ALTER TABLE "users" ADD COLUMN "emailVerifiedAt" TIMESTAMPTZ(3);

-- How each browser signed in ('password', 'link', 'code', 'passkey'); NULL for older sessions.
ALTER TABLE "sessions" ADD COLUMN "signInMethod" TEXT;

-- Links and codes mailed to an address: a registration to finish, or a sign-in. Only hashes are
-- kept (sha256 of a 32-byte token; sha256 of the 6-digit code). A row is used once, dies after
-- 5 wrong codes, and a newer row for the same address and purpose ends the older ones.
CREATE TABLE "email_sign_ins" (
    "id" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "userId" UUID,
    "passwordHash" TEXT,
    "tokenHash" TEXT NOT NULL,
    "codeHash" TEXT,
    "codeAttempts" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "usedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_sign_ins_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "email_sign_ins_tokenHash_key" ON "email_sign_ins"("tokenHash");

CREATE INDEX "email_sign_ins_email_purpose_idx" ON "email_sign_ins"("email", "purpose");

-- The session lookup also says whether the user's address is proven (the desk and the newsletter
-- ask on the request's own session). Its result type changes, so it is dropped and made again.
DROP FUNCTION "cohort_session_user"(UUID, UUID);

CREATE FUNCTION "cohort_session_user"("p_user" UUID, "p_session" UUID)
RETURNS TABLE (
    "id" UUID,
    "email" TEXT,
    "emailVerified" BOOLEAN,
    "sessionVersion" INTEGER,
    "plan" TEXT,
    "status" TEXT,
    "expiresAt" TIMESTAMPTZ,
    "sessionSeenAt" TIMESTAMPTZ
)
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN QUERY
    SELECT u."id", u."email", u."emailVerifiedAt" IS NOT NULL, u."sessionVersion", m."plan"::TEXT,
           m."status", m."expiresAt", s."lastSeenAt"
    FROM "users" u
    LEFT JOIN "memberships" m ON m."userId" = u."id"
    LEFT JOIN "sessions" s ON s."id" = "p_session" AND s."userId" = u."id"
    WHERE u."id" = "p_user";
END
$$;
