// libpq, PostgreSQL's C client library (Debian/Ubuntu: libpq-dev; Homebrew: libpq). pkg-config supplies the
// include path, so the header is found wherever the system puts it.
#include <libpq-fe.h>
