#!/bin/sh
# Builds the image with its revision and source labels (and BUILD_REVISION) taken from git when
# the checkout has it, else "unknown": `sh tools/image/build.sh -t pos-read-api [more build
# options]`. REVISION and SOURCE in the environment win; CONTAINER_ENGINE picks docker or podman
# (default: docker when installed). The Dockerfile cannot ask git itself: .git is not in the
# build context (.dockerignore), and a label is fixed before any RUN.
set -eu
cd "$(dirname "$0")/../.."
engine=${CONTAINER_ENGINE:-$(command -v docker >/dev/null 2>&1 && echo docker || echo podman)}
revision=${REVISION:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
if [ "$revision" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  revision="$revision-dirty"
fi
# The origin's URL without any user or token in it.
source_url=${SOURCE:-$(git config --get remote.origin.url 2>/dev/null | sed -E 's#^([a-z+]+://)[^/@]*@#\1#' || true)}
exec "$engine" build --build-arg REVISION="$revision" --build-arg SOURCE="${source_url:-unknown}" "$@" .
