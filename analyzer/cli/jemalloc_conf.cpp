// jemalloc's start-up options for the CLI, read by jemalloc from this global (its documented
// `malloc_conf`; the MALLOC_CONF environment variable still overrides). Built only when the CLI
// links jemalloc (CMakeLists.txt).
//
// jemalloc's own defaults, written out because they are a measured choice, not an oversight:
// no transparent huge pages. Session 8 asked for them (`thp:always,metadata_thp:always`): on
// that machine a 4 KiB page fault was expensive, and a quarter of the 100k Triton corpus at -j2
// went from 3.81 s to 3.05 s with 25x fewer faults. On this project's VM since then (kernel
// 6.18, session 18), huge pages made every corpus slower, and most of all a run that follows
// another process's (the benchmark runs the analyzer right after Python's parse): with
// `bench/ab.sh` (alternated, order reversed every other round, -j2), medians of 4 rounds, huge
// pages / these defaults: 2.55 / 2.23 s on a quarter of the varied corpus, 2.07 / 1.90 s on the
// Triton corpus of the same size, and 10.60 / 9.85 s (3 rounds) on the 100k varied corpus; the
// system time of one run went up to 2.3 s with them against ~0.65 s without. No compaction
// stalls were counted (/proc/vmstat), so the cost is in faulting fresh 2 MiB pages in, which a
// VM may back lazily. Where huge pages pay, MALLOC_CONF=thp:always,metadata_thp:always turns
// them back on (docs/performance.md, session 18).
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "thp:default,metadata_thp:disabled";
}
