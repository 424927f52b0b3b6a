#include <libpq-fe.h>

// PG_DIAG_SQLSTATE is a character macro Swift does not import: the field of an error result that
// holds its five-character SQLSTATE code.
static inline int cpostgres_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
