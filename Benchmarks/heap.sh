# Sourced by the benchmarks that count heap allocations. valgrind 3.19 cannot read all of the DWARF a Swift
# release binary carries, so counts are taken on a copy without debug information, made once.
#   heap_ready BINARY    -> true when valgrind is installed (and the copy made), else says how to get it
#   heap_allocations ARGS...  -> total heap allocations of one run of the copy with ARGS
heap_ready() {
    if ! command -v valgrind >/dev/null; then
        echo "valgrind not installed: allocation count skipped (apt-get install valgrind)"
        return 1
    fi
    HEAP_BINARY=$(mktemp)
    objcopy --strip-debug "$1" "$HEAP_BINARY"
}

heap_allocations() {
    valgrind --tool=memcheck "$HEAP_BINARY" "$@" 2>&1 \
        | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
