-- A feed's item used to be known by its address; it is known by its post's id now, which no
-- re-slug or move changes. The posts already in feeds keep what readers know them by: marked here
-- (an empty string), each takes the address it has when the first feed after this is drawn.
ALTER TABLE "posts" ADD COLUMN "feedGuidPath" TEXT;

UPDATE "posts"
   SET "feedGuidPath" = ''
 WHERE "status" IN ('published', 'scheduled')
   AND "publishedAt" <= now()
   AND "kind" <> 'page';
