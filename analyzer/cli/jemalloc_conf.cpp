// jemalloc's start-up options for the CLI, read by jemalloc from this global (its documented
// `malloc_conf`; the MALLOC_CONF environment variable still overrides). Built only when the CLI
// links jemalloc (CMakeLists.txt).
//
// thp:always asks the kernel for transparent huge pages on jemalloc's arenas (madvise(2); the
// kernel's default "madvise" mode honours it, "never" ignores it). The model of a 100k-kernel
// corpus is ~2 GB of small objects: in 4 KiB pages that is ~500k page faults. On a virtual machine
// a fault is expensive (here, a Firecracker VM: touching 2 GB took 6-7 s in 4 KiB pages and 3.7 s
// in huge pages), and a quarter of the 100k Triton corpus at -j2 went from a median 3.81 s to
// 3.05 s wall (bench/ab.sh, 3 alternated rounds) with 25x fewer faults (docs/performance.md,
// session 8). On session 7's machine, where faults were ~5% of a 100k-kernel run, the two
// measured the same.
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "thp:always,metadata_thp:always";
}
