-- The mail the site would have sent while it goes to the log (no SMTP server): the desk's
-- mailbox (/desk/mailbox) shows the latest few hundred, to every app server and after a restart.
CREATE TABLE "logged_mails" (
    "id" BIGSERIAL NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "logged_mails_pkey" PRIMARY KEY ("id")
);
