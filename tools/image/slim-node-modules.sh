#!/bin/sh
# Removes from a production node_modules what Node on this platform (glibc) never loads; the
# Dockerfile runs it after `npm prune --omit=dev` (docs/operations.md, "Docker"; decision 22.8.1).
#
#   sh tools/image/slim-node-modules.sh node_modules
set -eu
nm=${1:-node_modules}
platform=$(node -p 'process.platform + "-" + process.arch')
# Node 20's SQLite driver (an optional dependency for Node 20 only) and the workspace link.
rm -rf "$nm/better-sqlite3-node20" "$nm/@pos-read-api"
# Native modules: the compiler's inputs and leftovers, and the other platforms' binaries.
rm -rf "$nm/better-sqlite3/deps" "$nm/better-sqlite3/src"
for gyp in "$nm"/*/binding.gyp "$nm"/@*/*/binding.gyp; do
  [ -f "$gyp" ] || continue
  build=$(dirname "$gyp")/build
  [ -d "$build" ] && find "$build" -type f ! -name '*.node' -delete
  [ -d "$build" ] && find "$build" -name 'test_extension.node' -delete
  [ -d "$build" ] && find "$build" -depth -type d -empty -delete
done
for dir in "$nm"/*/prebuilds "$nm"/@*/*/prebuilds; do
  [ -d "$dir" ] || continue
  for entry in "$dir"/*; do
    case "$(basename "$entry")" in "$platform" | "$platform.node") ;; *) rm -rf "$entry" ;; esac
  done
  find "$dir" -name '*musl*' -exec rm -rf {} +
done
# Types, source maps, TypeScript sources, documents and the browser build of TypeORM: never
# loaded by Node. Licence files stay.
rm -rf "$nm/@types" "$nm/typeorm/browser"
find "$nm" -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \
  -o -name '*.md' -o -name '*.markdown' \) ! -iname 'licen[cs]e*' ! -iname 'copying*' \
  ! -iname 'notice*' -delete
