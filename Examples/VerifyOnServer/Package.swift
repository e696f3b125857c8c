// swift-tools-version: 6.0
import PackageDescription

// What a Swift server does with the ID token a client sends: one plain function a Vapor or
// Hummingbird middleware calls with the request's Authorization header, and a command that
// runs it on headers read from stdin, one per line (no web framework needed to try it).
let package = Package(
    name: "VerifyOnServer",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "fbauth", path: "../..")],
    targets: [
        .executableTarget(name: "VerifyOnServer", dependencies: [.product(name: "FirebaseAdminAuth", package: "fbauth")]),
    ]
)
