// swift-tools-version: 6.0
import PackageDescription

// fbauth uses only what the Swift toolchain ships: no package dependencies.
let package = Package(
    name: "fbauth",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "fbauth", targets: ["fbauth"]),
        // The library: Firebase's Apple SDK's own public API on Linux (`import FirebaseCore`,
        // `import FirebaseAuth`), so the guides' Swift compiles unchanged. Full Foundation
        // (NSError, property lists), which only programs importing these link: `fbauth` does not.
        // FBAuth, the machinery under it and under the command line, is no product: its API is
        // fbauth's own, not the SDK's (issue 39).
        .library(name: "FirebaseCore", targets: ["FirebaseCore"]),
        .library(name: "FirebaseAuth", targets: ["FirebaseAuth"]),
        // For servers: verifying the ID tokens and session cookies clients send, with the Admin
        // SDKs' names (`AdminAuth().verifyIDToken`), no session store.
        .library(name: "FirebaseAdminAuth", targets: ["FirebaseAdminAuth"]),
    ],
    targets: [
        // Sockets, a pure HTTP/1.1 request parser and a poll loop: the loopback listener's
        // machinery, shared by fbauth's redirect receiver and the local stand-in for Firebase.
        .target(name: "LoopbackHTTP"),
        // What the library and the command line share that is not Firebase Auth: the POSIX host
        // (files, terminal, processes, signals, environment), clocks, randomness, and the checks
        // of text bound for a terminal. Not part of FBAuth's API.
        .target(name: "FBAuthSupport", dependencies: ["LoopbackHTTP"]),
        // The library: sign-in flows, REST client, redirect listener, session store. Knows nothing
        // of the command line; reports progress to an observer. FoundationEssentials only on
        // Linux (no ICU), HTTP through the system's libcurl loaded on the first request.
        // One HTTP exchange (the transport seam, libcurl's on Linux) and the JSON it carries:
        // all a server's token verification needs of the engine (issue 48, item 5).
        .target(name: "FBAuthHTTP", dependencies: ["CCurl", "FBAuthSupport"]),
        .target(name: "FBAuth", dependencies: ["FBAuthHTTP", "FBAuthSupport", "LoopbackHTTP"]),
        // Verifying Firebase ID tokens and session cookies as the Admin SDKs do (issue 42): RS256
        // by hand, Google's x509 certificates, firebase-admin's checks. No session store.
        .target(name: "FBAuthVerification", dependencies: ["FBAuthHTTP", "FBAuthSupport", "LoopbackHTTP"]),
        // The Admin SDKs' token verification for Swift servers, over FBAuthVerification.
        // The Admin API's user management (firebase-admin-node's BaseAuth), under
        // FirebaseAdminAuth and `fbauth users`: package, never public.
        .target(name: "FBAuthAdmin", dependencies: ["FBAuthHTTP", "FBAuthSupport", "FBAuthVerification"]),
        .target(name: "FirebaseAdminAuth", dependencies: ["FBAuthAdmin", "FBAuthHTTP", "FBAuthSupport", "FBAuthVerification"]),
        // FirebaseApp and FirebaseOptions, as the SDK's FirebaseCore names them.
        .target(name: "FirebaseCore"),
        // The SDK's FirebaseAuth API (Auth.auth(), OAuthProvider.getCredentialWith, NSError codes)
        // over FBAuth.
        .target(name: "FirebaseAuth", dependencies: ["FirebaseCore", "FBAuth"]),
        // The system's libcurl, loaded with dlopen on the first request (Linux's HTTP stack).
        .target(name: "CCurl"),
        // argc and argv for `CommandLine` on Linux without the runtime's read of /proc/self/maps
        // at every start (linked into `fbauth` only).
        .target(name: "CProcessArguments"),
        // The command line: arguments, commands, console, exit codes, help. Drives FBAuth.
        .target(name: "FBAuthCLI", dependencies: ["FBAuth", "FBAuthAdmin", "FBAuthSupport", "FBAuthVerification", "LoopbackHTTP"]),
        // The HTTP transport on macOS (URLSession); built everywhere so Linux tests keep it honest.
        .target(name: "FBAuthURLSession", dependencies: ["FBAuthHTTP", "FBAuthSupport"]),
        // A production-like stand-in for Identity Toolkit, securetoken and OAuth providers,
        // plus a headless browser. Independent of FBAuth on purpose: it must catch the
        // client's protocol mistakes, not share them. FBAuthHTTP (libcurl) only calls blocking functions.
        .target(name: "FBAuthStandIn", dependencies: ["LoopbackHTTP", "FBAuthSupport", "FBAuthHTTP"]),
        // The command users run, with the local stand-in; URLSession on macOS, libcurl on Linux.
        .executableTarget(
            name: "fbauth",
            dependencies: ["FBAuthCLI", "FBAuth", "FBAuthSupport", "FBAuthStandIn", "CProcessArguments", .target(name: "FBAuthURLSession", condition: .when(platforms: [.macOS]))]),
        // The start-up floor Scripts/bench.sh compares `fbauth token` with: a Swift program that
        // only prints, linked as fbauth is.
        .executableTarget(name: "fbauth-startup-floor", dependencies: ["CProcessArguments"], path: "Scripts/bench/startup-floor"),
        // How many ID tokens one core verifies per second with the keys in memory (bench.sh).
        .executableTarget(name: "fbauth-verify-throughput", dependencies: ["FBAuthHTTP", "FBAuthVerification"], path: "Scripts/bench/verify-throughput"),
        .executableTarget(name: "fbauth-admin-throughput", dependencies: ["FirebaseAdminAuth"], path: "Scripts/bench/admin-throughput"),
        // A scriptable "browser" for end-to-end tests ($BROWSER).
        .executableTarget(name: "fbauth-fake-browser", dependencies: ["FBAuthStandIn"]),
        // Headless Chromium playing the user over the DevTools protocol, for end-to-end tests of
        // the hosted flow's page ($BROWSER).
        .executableTarget(name: "fbauth-test-chromium"),
        // Properties the listener's input handling must keep for any bytes; checked by the
        // libFuzzer target (Scripts/fuzz.sh) and, on the seed corpus, by the tests.
        .target(name: "CallbackFuzzing", dependencies: ["FBAuth", "FBAuthSupport", "LoopbackHTTP"]),
        .executableTarget(name: "fbauth-fuzz", dependencies: ["CallbackFuzzing"]),
        // How tests wait for other processes and threads (never for time to pass).
        // Plain code (no @testable import), so that `swift build -c release` builds it too.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "LoopbackHTTPTests", dependencies: ["LoopbackHTTP", "CallbackFuzzing", "TestSupport"]),
        .testTarget(name: "FBAuthTests", dependencies: ["FBAuth", "FBAuthSupport", "FBAuthCLI", "FBAuthURLSession", "FBAuthStandIn", "FBAuthVerification", "TestSupport"],
                    // Answers recorded from real components, read by the tests from the source tree.
                    exclude: ["Fixtures"]),
        .testTarget(name: "FBAuthStandInTests", dependencies: ["FBAuthStandIn", "FBAuthSupport", "LoopbackHTTP", "TestSupport"],
                    // Hash vectors and the script that makes them, read by the tests from the source tree.
                    exclude: ["Fixtures"]),
        // One test target a product (issue 48): the SDK's API as an app calls it, against the
        // stand-in in process.
        .testTarget(name: "FirebaseAuthTests", dependencies: ["FirebaseAuth", "FirebaseCore", "FBAuthStandIn", "TestSupport"]),
        .testTarget(name: "FirebaseCoreTests", dependencies: ["FirebaseCore"]),
        .testTarget(name: "FirebaseAdminAuthTests", dependencies: ["FirebaseAdminAuth", "FirebaseAuth", "FirebaseCore", "FBAuthStandIn", "TestSupport",
                                                                    "FBAuthHTTP", "FBAuthSupport", "LoopbackHTTP", "FBAuthAdmin"],
                    exclude: ["Fixtures"]),
        .testTarget(
            name: "FBAuthCLITests",
            dependencies: ["fbauth", "fbauth-fake-browser", "fbauth-test-chromium", "FBAuthStandIn", "LoopbackHTTP", "TestSupport"],
            // Served to Chromium by fbauth-test-chromium, and read by the tests, from the source tree.
            exclude: ["Browser", "Fixtures"]),
    ]
)
