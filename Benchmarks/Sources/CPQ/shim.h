// libpq, for the hand-written baseline of the PostgreSQL scenario.
#include <libpq-fe.h>
