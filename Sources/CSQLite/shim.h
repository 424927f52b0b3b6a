#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro Swift cannot import: a destructor value telling SQLite to copy.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
