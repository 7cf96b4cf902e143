-- Integrations (docs/ghost-api.md): named pairs of keys to Ghost's Content and Admin APIs, and
-- staff members' own admin keys. A content key is kept as its SHA-256, an admin key's secret
-- encrypted (server/src/integrations/): neither is stored as it was shown.
CREATE TABLE "integrations" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "createdBy" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "integrations_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "integrations_createdAt_idx" ON "integrations"("createdAt");

CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "integrationId" UUID,
    "userId" UUID,
    "hash" TEXT,
    "secret" TEXT,
    "hint" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

CREATE INDEX "api_keys_integrationId_idx" ON "api_keys"("integrationId");

CREATE INDEX "api_keys_userId_idx" ON "api_keys"("userId");

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_integrationId_fkey" FOREIGN KEY ("integrationId") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
