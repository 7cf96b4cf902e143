#!/bin/sh
# HTTPS in one command, from the compose project's folder, with the site answering on port 80 and
# the domain's DNS pointing at this server:
#   deploy/tls/setup-tls.sh example.com you@example.com
# Gets a Let's Encrypt certificate (webroot, through the running nginx), sets SERVER_NAME, TLS=on,
# SITE_URL=https://<domain> and COMPOSE_PROFILES (+tls: the certbot service that renews twice a day)
# in .env, then recreates nginx and the app with them. Running it again is harmless.
set -eu

domain="${1:-}"
email="${2:-}"
if [ -z "$domain" ] || [ -z "$email" ]; then
  echo "usage: $0 <domain> <email for Let's Encrypt's expiry notices>" >&2
  exit 2
fi
[ -f .env ] || { echo "no .env here: run this from the folder with docker-compose.yml" >&2; exit 2; }

# Replaces (or adds) one NAME=value line of .env.
set_env() {
  if grep -q "^$1=" .env; then
    sed -i.bak "s|^$1=.*|$1=$2|" .env && rm -f .env.bak
  else
    printf '%s=%s\n' "$1" "$2" >> .env
  fi
}

docker compose up -d nginx
docker compose run --rm --entrypoint certbot certbot certonly --webroot -w /var/www/certbot \
  -d "$domain" --email "$email" --agree-tos --no-eff-email --non-interactive --keep-until-expiring

profiles="$(sed -n 's/^COMPOSE_PROFILES=//p' .env)"
case ",$profiles," in
  *,tls,*) ;;
  ,,) set_env COMPOSE_PROFILES tls ;;
  *) set_env COMPOSE_PROFILES "$profiles,tls" ;;
esac
set_env SERVER_NAME "$domain"
set_env TLS on
set_env SITE_URL "https://$domain"
# A first start on plain HTTP needed this; with HTTPS on, production checks SITE_URL again.
if grep -q '^ALLOW_INSECURE_SITE_URL=' .env; then set_env ALLOW_INSECURE_SITE_URL false; fi

docker compose up -d
echo "HTTPS is on: https://$domain (certbot renews the certificate; nginx reloads it every 6 h)"
