// SQLite's C library, for reading gcloud's credential database (bearer migrate --from gcloud):
// Debian and Ubuntu `apt-get install libsqlite3-dev`; macOS has it in its SDK.
#include <sqlite3.h>
