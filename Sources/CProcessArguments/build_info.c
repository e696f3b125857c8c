// The commit `fbauth --version` names: Scripts/build-release.sh writes it to a header in its
// build directory (on the include path it gives), so that a new commit recompiles this file
// alone. Other builds have none.
#include "process_arguments.h"
#if __has_include("fbauth_build_commit.h")
#include "fbauth_build_commit.h"
#endif
#ifndef FBAUTH_COMMIT
#define FBAUTH_COMMIT ""
#endif

const char *fbauth_build_commit(void) { return FBAUTH_COMMIT; }
