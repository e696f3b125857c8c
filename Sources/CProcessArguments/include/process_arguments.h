// The target's main job is a link-time definition (process_arguments.c).

/// The commit the release build was made from (`git rev-parse --short HEAD`), or "".
const char *fbauth_build_commit(void);
