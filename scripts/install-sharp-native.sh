#!/bin/sh
# The Docker image installs production dependencies without optional ones (no embedded database,
# no Prisma CLI): this adds back the one optional pair it needs, sharp's prebuilt libvips for
# this machine's architecture, at the versions sharp names. Run in the folder holding node_modules.
set -eu
for pkg in $(node -e "
  const deps = require('./node_modules/sharp/package.json').optionalDependencies;
  for (const name of ['@img/sharp-linux-' + process.arch, '@img/sharp-libvips-linux-' + process.arch])
    console.log(name + '@' + deps[name]);
"); do
  name="${pkg%@*}"
  mkdir -p "node_modules/$name"
  tarball=$(npm pack --silent --pack-destination /tmp "$pkg")
  tar -xzf "/tmp/$tarball" --strip-components=1 -C "node_modules/$name"
  rm "/tmp/$tarball"
done
