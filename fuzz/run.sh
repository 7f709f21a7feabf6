#!/usr/bin/env bash
# Builds every cargo-fuzz target of this directory and fuzzes each in turn
# for SECONDS_PER_TARGET seconds (default 30) on its committed seed corpus.
#
#   fuzz/run.sh [SECONDS_PER_TARGET]
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install --locked
# cargo-fuzz`). Runs from any directory and leaves the work tree as it was:
# libFuzzer writes the inputs it finds to a temporary corpus directory given
# first, and reads the committed corpus (fuzz/corpus/<target>/) as a second,
# read-only one. A target that crashes, panics, leaks, runs out of memory or
# spends more than 10 s on one input fails the run: its log is printed and
# the reproducing input is kept in fuzz/artifacts/<target>/ (ignored by
# git); reproduce it with `cargo +nightly fuzz run <target> <that file>`.
# The CPU seconds of the summary are the fuzzer's (user + system; the
# search target runs two search threads on some inputs).
# Prints one summary line per target (runs, seconds, CPU seconds, corpus)
# and exits non-zero when any target failed.
set -euo pipefail

seconds="${1:-30}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 [SECONDS_PER_TARGET]   (a whole number of seconds, at least 1)" >&2
    exit 2
fi
cd "$(dirname "$0")"

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "run.sh: cargo-fuzz for the nightly toolchain is missing: install it with" >&2
    echo "        rustup toolchain install nightly && cargo install --locked cargo-fuzz" >&2
    exit 2
fi

echo "==> building the fuzz targets"
cargo +nightly fuzz build
# The targets run straight from their binaries, so that the time measured is
# the fuzzer's alone (`cargo fuzz run` would check the build again).
host="$(rustc +nightly -vV | sed -n 's/^host: //p')"
bin="target/$host/release"

mapfile -t targets < <(cargo +nightly fuzz list)
work="$(mktemp -d "${TMPDIR:-/tmp}/dvonn-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT

failed=()
summary=()
for target in "${targets[@]}"; do
    echo "==> fuzzing $target for $seconds s"
    mkdir -p "$work/$target" "artifacts/$target"
    log="$work/$target.log"
    # The seed corpus must exist in a clean clone; an empty one still runs.
    seeds="corpus/$target"
    [[ -d "$seeds" ]] || seeds="$work/$target-no-seeds"
    mkdir -p "$seeds"
    before="$(find "$seeds" -type f | wc -l)"
    status=0
    TIMEFORMAT='%U %S'
    { time "$bin/$target" "$work/$target" "$seeds" -artifact_prefix="artifacts/$target/" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        >"$log" 2>&1; } 2>"$work/$target.time" || status=$?
    read -r user sys <"$work/$target.time"
    cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')"
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
    took="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)"
    found="$(find "$work/$target" -type f | wc -l)"
    if [[ "$status" -eq 0 ]]; then
        line="$(printf '%-16s ok      %9s runs in %4s s (%s/s), %6s CPU s, corpus %s seeds + %s new' \
            "$target" "${runs:-?}" "${took:-?}" "${rate:-?}" "$cpu" "$before" "$found")"
    else
        failed+=("$target")
        line="$(printf '%-16s FAILED  %9s runs, %6s CPU s (exit %s); see the log above' \
            "$target" "${runs:-?}" "$cpu" "$status")"
        echo "---- $target: last lines of the libFuzzer log ----"
        tail -n 60 "$log"
        echo "---- reproducing inputs in fuzz/artifacts/$target/:"
        ls -1 "artifacts/$target" || true
    fi
    echo "$line"
    summary+=("$line")
done

echo
echo "==> summary ($seconds s per target)"
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "FAILED: ${failed[*]}" >&2
    exit 1
fi
