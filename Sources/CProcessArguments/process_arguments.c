// The Swift runtime's way to `CommandLine` on Linux, without its start-up cost.
//
// libswiftCore finds argc and argv with a static initializer that opens and parses
// /proc/self/maps to locate the stack (swiftlang/swift, stdlib/public/CommandLineSupport/
// CommandLine.cpp, `ArgvGrabber`): about 0.08 ms at every start of every Swift program on
// Linux, a tenth of `fbauth token`'s whole time. glibc hands argc and argv to ELF constructors,
// so this file keeps them and defines the function the standard library calls for them. With
// the runtime linked statically (Scripts/build-release.sh), the linker then has no reason to
// pull CommandLine.o out of libswiftCore.a, and its initializer is gone. Where the runtime is a
// shared library (debug builds) its own definition is used and this one is merely unused.
// Either way `CommandLine.arguments` is the same; every end-to-end test passes arguments.
#if defined(__linux__)
static char **saved_argv;
static int saved_argc;

__attribute__((constructor)) static void save_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
}

// The standard library's entry point (swiftcall: on x86-64 and arm64 the same registers as C
// for one pointer in and one out).
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *count) {
    *count = saved_argc;
    return saved_argv;
}
#endif
