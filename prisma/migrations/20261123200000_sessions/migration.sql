-- A registered user's signed-in browsers: the session token names one, so it can be ended.
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "userAgent" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "sessions_userId_idx" ON "sessions"("userId");

ALTER TABLE "sessions" ADD CONSTRAINT "sessions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The session lookup behind nearly every API request (server/src/users/users.ts): the user, their
-- membership and the session the token names, in one call. A PL/pgSQL function because its query
-- plan is kept per connection: a plain unnamed statement is planned again on every request (about
-- half the lookup's cost), and a named prepared statement breaks behind PgBouncer in transaction
-- mode. Not modelled by Prisma; the app calls it with raw SQL.
CREATE FUNCTION "cohort_session_user"("p_user" UUID, "p_session" UUID)
RETURNS TABLE (
    "id" UUID,
    "email" TEXT,
    "sessionVersion" INTEGER,
    "plan" TEXT,
    "status" TEXT,
    "expiresAt" TIMESTAMPTZ,
    "sessionSeenAt" TIMESTAMPTZ
)
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN QUERY
    SELECT u."id", u."email", u."sessionVersion", m."plan"::TEXT, m."status", m."expiresAt",
           s."lastSeenAt"
    FROM "users" u
    LEFT JOIN "memberships" m ON m."userId" = u."id"
    LEFT JOIN "sessions" s ON s."id" = "p_session" AND s."userId" = u."id"
    WHERE u."id" = "p_user";
END
$$;

-- Failed sign-ins counted per key for a while, when no Redis is configured. Keys hold hashes.
CREATE TABLE "sign_in_counters" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sign_in_counters_pkey" PRIMARY KEY ("key")
);

CREATE INDEX "sign_in_counters_expiresAt_idx" ON "sign_in_counters"("expiresAt");

-- A new email waiting for its owner to prove the mailbox (the link mailed to it).
CREATE TABLE "email_changes" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "newEmail" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "usedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_changes_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "email_changes_tokenHash_key" ON "email_changes"("tokenHash");
CREATE INDEX "email_changes_userId_idx" ON "email_changes"("userId");

ALTER TABLE "email_changes" ADD CONSTRAINT "email_changes_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
