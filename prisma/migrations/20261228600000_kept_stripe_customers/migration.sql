-- A Stripe customer an import named while the site's payments were off: kept beside the member,
-- to be read and linked (stripe_customers) once the keys are set, by the next import or by
-- `npm run stripe:reconcile`. The row goes once the customer is linked or Stripe says it has none.
CREATE TABLE "kept_stripe_customers" (
    "userId" UUID NOT NULL,
    "customerId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "kept_stripe_customers_pkey" PRIMARY KEY ("userId", "customerId")
);

ALTER TABLE "kept_stripe_customers" ADD CONSTRAINT "kept_stripe_customers_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
