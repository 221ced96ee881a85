#!/usr/bin/env bash
# The explorer's browser test (issue #13), in one script for CI:
#   1. installs Debian's chromium if it is missing (as root, with apt-get);
#   2. installs playwright-core from the committed package-lock.json (npm ci;
#      it downloads no browser);
#   3. builds the binary (release; CONVCHECK_PROFILE=dev builds the dev
#      profile instead, which CI has already built for the tests);
#   4. starts `convcheck explore --port 0` and reads its URL, and a second
#      server with --allow-tools (clang-19, opt-19) when they are installed;
#   5. runs test.mjs with node's test runner, which writes the screenshot
#      (SCREENSHOT, default target/browser-test/explorer.png, under
#      CARGO_TARGET_DIR when it is set);
# and exits non-zero if any step fails. The server is stopped on exit.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
out="$target/browser-test"
mkdir -p "$out"
export SCREENSHOT="${SCREENSHOT:-$out/explorer.png}"

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "browser test: chromium is missing; install Debian's chromium (apt-get install chromium)" >&2
    exit 1
  fi
  echo "== browser test: installing chromium (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
export CHROMIUM="$(command -v chromium)"

echo "== browser test: npm ci (playwright-core)"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

profile="${CONVCHECK_PROFILE:-release}"
case "$profile" in
  release) dir=release ;;
  dev) dir=debug ;;
  *) echo "browser test: CONVCHECK_PROFILE is release or dev, not '$profile'" >&2; exit 2 ;;
esac
echo "== browser test: cargo build --profile $profile -p convcheck"
(cd "$root" && cargo build --profile "$profile" -p convcheck --quiet)

log="$out/server.log"
"$target/$dir/convcheck" explore --port 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 100); do
  url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$log" | head -n 1 || true)"
  [ -n "$url" ] && break
  if ! kill -0 "$server" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "browser test: the server did not start:" >&2
  cat "$log" >&2
  exit 1
fi
echo "== browser test: $url with $CHROMIUM"
export EXPLORE_URL="$url"

# A second server with --allow-tools for the clang test, when clang-19 and
# opt-19 are installed (CI installs them); without them that test is skipped.
if command -v clang-19 >/dev/null 2>&1 && command -v opt-19 >/dev/null 2>&1; then
  tools_log="$out/server-tools.log"
  "$target/$dir/convcheck" explore --port 0 --allow-tools --opt-bin opt-19 --clang-bin clang-19 >"$tools_log" 2>&1 &
  tools_server=$!
  trap 'kill "$server" "$tools_server" 2>/dev/null || true' EXIT
  for _ in $(seq 1 100); do
    tools_url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$tools_log" | head -n 1 || true)"
    [ -n "$tools_url" ] && break
    if ! kill -0 "$tools_server" 2>/dev/null; then break; fi
    sleep 0.1
  done
  if [ -z "$tools_url" ]; then
    echo "browser test: the server with --allow-tools did not start:" >&2
    cat "$tools_log" >&2
    exit 1
  fi
  export EXPLORE_TOOLS_URL="$tools_url"
else
  echo "== browser test: no clang-19/opt-19: the clang test is skipped"
fi
(cd "$here" && node --test --test-reporter=spec test.mjs)
echo "== browser test: screenshot in $SCREENSHOT"
