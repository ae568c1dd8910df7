#!/bin/sh
# Instructions per item of the fixed workloads in benches/count.rs, counted by callgrind:
# (I(N, 2 passes) - I(N, 1 pass)) / N, so that setup and process start cancel out.
#   benches/count.sh [BINARY]   (default: the newest target/release/deps/count-*)
# Build first: cargo bench --bench count --no-run
set -e
bin=${1:-$(ls -t target/release/deps/count-* | grep -v '\.d$' | head -1)}
ir() { # total instructions of one run
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" "$3" 2>"$out" >/dev/null
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out"
    rm -f "$out"
}
for spec in show:100000 batch-u8:100000 batch-i64:100000 piquet-u8:20000 piquet-i64:20000 simulate-six:200 simulate-piquet:1000; do
    w=${spec%%:*}; n=${spec##*:}
    a=$(ir "$w" "$n" 1); b=$(ir "$w" "$n" 2)
    echo "$w $(echo "scale=1; ($b - $a) / $n" | bc) instructions per item (N=$n)"
done
