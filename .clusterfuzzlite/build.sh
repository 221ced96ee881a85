#!/bin/bash -eu
# Builds every cargo-fuzz target of fuzz/ and copies it to $OUT, as
# ClusterFuzzLite and OSS-Fuzz expect (their documented layout for Rust:
# `cargo fuzz build -O`, then the binaries into $OUT).
#
# In the builder image this runs from $SRC/convcheck (the Dockerfile's
# WORKDIR) with SANITIZER set and a nightly toolchain, so cargo-fuzz's
# default sanitizer (address) applies. It also runs by hand from the
# repository root (fuzz/ci-smoke.sh does) on the stable toolchain:
#
#   OUT=/tmp/out CARGO_FUZZ_ARGS="--sanitizer none" bash .clusterfuzzlite/build.sh
#
# CARGO_FUZZ_ARGS holds extra arguments for `cargo fuzz build`.
# FUZZ_PROFILE=dev builds without optimizations (`cargo fuzz build --dev`):
# quicker to build, for the CI smoke test that runs each target seconds.

if [[ ! -f fuzz/Cargo.toml ]]; then
  echo "build.sh: run from the repository root (fuzz/Cargo.toml not found in $PWD)" >&2
  exit 2
fi
: "${OUT:?build.sh: set OUT to the folder for the fuzz target binaries}"
mkdir -p "$OUT/lib"

# Targets that use the z3 model link libz3 dynamically; the runner image
# has no z3, so the library goes to $OUT/lib and the binaries look there.
export RUSTFLAGS="${RUSTFLAGS:-} -C link-arg=-Wl,-rpath,\$ORIGIN/lib"

# shellcheck disable=SC2086 # CARGO_FUZZ_ARGS is a list of words.
case "${FUZZ_PROFILE:-release}" in
  release) profile_flag=-O; profile_dir=release ;;
  dev) profile_flag=--dev; profile_dir=debug ;;
  *) echo "build.sh: FUZZ_PROFILE is release or dev, not '$FUZZ_PROFILE'" >&2; exit 2 ;;
esac
cargo fuzz build "$profile_flag" ${CARGO_FUZZ_ARGS:-}

release="${CARGO_TARGET_DIR:-fuzz/target}/x86_64-unknown-linux-gnu/$profile_dir"
for target in $(cargo fuzz list); do
  cp "$release/$target" "$OUT/"
  # The shared libraries it needs that are not part of every Linux system.
  ldd "$OUT/$target" | awk '/libz3/ { print $3 }' | while read -r lib; do
    dest="$OUT/lib/$(basename "$lib")"
    [[ -e "$dest" ]] || cp -L "$lib" "$dest"
  done
done
