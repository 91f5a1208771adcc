// libpq, PostgreSQL's C client library, found through pkg-config (libpq.pc): Debian and Ubuntu
// `apt-get install libpq-dev`, Homebrew `brew install libpq` (keg-only: put
// "$(brew --prefix libpq)/lib/pkgconfig" on PKG_CONFIG_PATH).
#include <libpq-fe.h>
