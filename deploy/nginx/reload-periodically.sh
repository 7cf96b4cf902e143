#!/bin/sh
# Run by the nginx image's entry point (/docker-entrypoint.d/) before nginx starts: reloads nginx
# every 6 hours, so a certificate certbot renewed (docker-compose.yml's `certbot` service) is used
# without a restart. A reload finishes in-flight requests on the old workers.
( while sleep 21600; do nginx -s reload; done ) &
