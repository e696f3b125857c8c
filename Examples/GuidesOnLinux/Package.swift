// swift-tools-version: 6.0
import PackageDescription

// An app that uses Firebase Authentication as Firebase's guides for Apple platforms show it, and
// runs on Linux with fbauth. On Apple platforms the same sources build against Firebase's SDK:
// the manifest chooses the package when it is read (docs/library.md, "An app on Apple platforms
// and elsewhere"). This one names fbauth alone, by path, so that it builds offline.
let package = Package(
    name: "GuidesOnLinux",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "fbauth", path: "../..")],
    targets: [
        .executableTarget(name: "GuidesOnLinux", dependencies: [
            .product(name: "FirebaseCore", package: "fbauth"),
            .product(name: "FirebaseAuth", package: "fbauth"),
        ], swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
