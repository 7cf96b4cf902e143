-- Tiers (contract/tiers.ts): what the site sells, each with its own prices and its own readers. The
-- membership sold until now becomes the first tier, `supporter`, and every row that meant it (its
-- plans, its members' periods, gifts, seats, offers) names it, so nobody reads more or less than
-- before. Rows keep naming a tier by id: an owner may change a tier's slug and name.
CREATE TABLE "tiers" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "benefits" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "visible" BOOLEAN NOT NULL DEFAULT true,
    "position" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedBy" UUID,

    CONSTRAINT "tiers_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "tiers_slug_key" ON "tiers"("slug");

INSERT INTO "tiers" ("id", "slug", "name", "position", "updatedAt")
VALUES (1, 'supporter', 'Supporter', 0, CURRENT_TIMESTAMP);

SELECT setval(pg_get_serial_sequence('"tiers"', 'id'), 1);

-- A tier's prices are its plans: the same three plans for each tier.
ALTER TABLE "plans" ADD COLUMN "tierId" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "plans" DROP CONSTRAINT "plans_pkey";

ALTER TABLE "plans" ADD CONSTRAINT "plans_pkey" PRIMARY KEY ("tierId", "id");

ALTER TABLE "plans" ADD CONSTRAINT "plans_tierId_fkey" FOREIGN KEY ("tierId") REFERENCES "tiers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The tier each period of access is for, and the tier a membership gives now (derived with it).
ALTER TABLE "entitlements" ADD COLUMN "tierId" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "entitlements" ADD CONSTRAINT "entitlements_tierId_fkey" FOREIGN KEY ("tierId") REFERENCES "tiers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "memberships" ADD COLUMN "tierId" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "memberships" ADD CONSTRAINT "memberships_tierId_fkey" FOREIGN KEY ("tierId") REFERENCES "tiers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "subscriptions" ADD COLUMN "tierId" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_tierId_fkey" FOREIGN KEY ("tierId") REFERENCES "tiers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "gifts" ADD COLUMN "tierId" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "gifts" ADD CONSTRAINT "gifts_tierId_fkey" FOREIGN KEY ("tierId") REFERENCES "tiers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "seat_fundings" ADD COLUMN "tierId" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "seat_fundings" ADD CONSTRAINT "seat_fundings_tierId_fkey" FOREIGN KEY ("tierId") REFERENCES "tiers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "offers" ADD COLUMN "tierId" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "offers" ADD CONSTRAINT "offers_tierId_fkey" FOREIGN KEY ("tierId") REFERENCES "tiers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Who may read a post: `public`, `registered` (signed in with a proven address), `members` (any
-- paying member, the meaning it always had) or `tiers` (members of the tiers `tierIds` names).
ALTER TABLE "posts" ADD COLUMN "tierIds" INTEGER[] NOT NULL DEFAULT ARRAY[]::INTEGER[];

ALTER TABLE "posts" ADD CONSTRAINT "posts_visibility_check" CHECK (
    ("visibility" IN ('public', 'registered', 'members') AND cardinality("tierIds") = 0)
    OR ("visibility" = 'tiers' AND cardinality("tierIds") > 0)
);

-- The session's user with the slug of their membership's tier: who a reader is, in one round trip.
-- A plain SQL function now (the planner can fold it into the caller's query).
DROP FUNCTION "cohort_session_user"(UUID, UUID);

CREATE FUNCTION "cohort_session_user"("p_user" UUID, "p_session" UUID)
RETURNS TABLE ("id" UUID, "email" TEXT, "emailVerified" BOOLEAN, "sessionVersion" INTEGER,
               "plan" TEXT, "status" TEXT, "expiresAt" TIMESTAMPTZ, "tier" TEXT,
               "sessionSeenAt" TIMESTAMPTZ)
LANGUAGE sql STABLE AS $$
    SELECT u."id", u."email", u."emailVerifiedAt" IS NOT NULL, u."sessionVersion",
           m."plan"::TEXT, m."status", m."expiresAt", t."slug", s."lastSeenAt"
      FROM "users" u
      LEFT JOIN "memberships" m ON m."userId" = u."id"
      LEFT JOIN "tiers" t ON t."id" = m."tierId"
      LEFT JOIN "sessions" s ON s."id" = "p_session" AND s."userId" = u."id"
     WHERE u."id" = "p_user"
$$;
