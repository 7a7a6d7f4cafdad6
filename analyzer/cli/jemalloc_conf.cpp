// jemalloc's start-up options for the CLI, read by jemalloc from this global (its documented
// `malloc_conf`; the MALLOC_CONF environment variable still overrides). Built only when the CLI
// links jemalloc (CMakeLists.txt).
//
// jemalloc's own defaults, written out because they are a choice, not an oversight: no
// transparent huge pages. They cut page faults, but faulting fresh 2 MiB pages in cost more
// system time than that saved on the benchmark corpora (docs/performance.md, 'jemalloc, without
// transparent huge pages'). MALLOC_CONF=thp:always,metadata_thp:always turns them on.
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "thp:default,metadata_thp:disabled";
}
