// swift-tools-version: 6.0
import PackageDescription

// An app that uses Firebase Authentication as Firebase's guides for Apple platforms show it, and
// runs on Linux with fbauth. On Apple platforms the same sources build against Firebase's SDK:
//
//   dependencies: [.package(url: "https://github.com/firebase/firebase-ios-sdk", from: "12.0.0")],
//   .product(name: "FirebaseAuth", package: "firebase-ios-sdk", condition: .when(platforms: [.iOS, .macOS])),
//   .product(name: "FirebaseAuth", package: "fbauth", condition: .when(platforms: [.linux])),
//
// (SwiftPM resolves every package dependency on every platform, so a manifest that names both
// needs both reachable; this one names fbauth alone, by path, so that it builds offline.)
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
