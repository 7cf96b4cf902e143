-- Partner perks: single-use codes and who claimed them, and who revealed a shared code or link.
CREATE TABLE "perk_codes" (
    "id" BIGSERIAL NOT NULL,
    "perkId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "claimedBy" UUID,
    "claimedAt" TIMESTAMPTZ(3),
    "importedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "perk_codes_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "perk_claims" (
    "perkId" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "claimedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "perk_claims_pkey" PRIMARY KEY ("perkId","userId")
);

CREATE UNIQUE INDEX "perk_codes_perkId_code_key" ON "perk_codes"("perkId", "code");

-- One code per member per perk (NULLs, the free codes, are distinct).
CREATE UNIQUE INDEX "perk_codes_perkId_claimedBy_key" ON "perk_codes"("perkId", "claimedBy");

-- The next free code of a perk, in import order.
CREATE INDEX "perk_codes_perkId_claimedAt_id_idx" ON "perk_codes"("perkId", "claimedAt", "id");

ALTER TABLE "perk_codes" ADD CONSTRAINT "perk_codes_claimedBy_fkey" FOREIGN KEY ("claimedBy") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "perk_claims" ADD CONSTRAINT "perk_claims_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
