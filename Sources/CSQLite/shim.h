#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro Swift cannot import: a destructor value telling SQLite to copy.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic, which Swift cannot call. Turns off the page cache's initial bulk
// allocation (SQLITE_CONFIG_PAGECACHE with no buffer and N = 0): pages are allocated one by one as
// needed. Only before sqlite3_initialize (the first open); later it returns SQLITE_MISUSE.
static inline int csqlite_config_no_initial_page_cache_allocation(void) {
    return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}

// Turns off SQLite's memory statistics (SQLITE_CONFIG_MEMSTATUS 0): every allocation and free
// otherwise takes a mutex to count it, and nothing here reads the counts (sqlite3_memory_used,
// a soft heap limit). Only before sqlite3_initialize, like the above.
static inline int csqlite_config_no_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
