import FirebaseAuth
import Foundation
import Testing

/// Issue 48: the list of the SDK's members that docs/sdk-api.md and the coverage check count
/// (Scripts/sdk-api/members-12.19.0.tsv) is the one firebase-ios-sdk's own sources at Release
/// 12.19.0 give, read by Scripts/sdk-api.py. It runs where a fetched firebase-ios-sdk is named
/// (`FBAUTH_TEST_IOS_SDK`, a git directory; `.ci/run` names one beside the clone when it is there).
@Suite(.enabled(if: FetchedSDK.path != nil, "FBAUTH_TEST_IOS_SDK is not set (no fetched firebase-ios-sdk to read)"))
struct SDKMemberListTests {
    /// The commit of "chore: update versions for Release 12.19.0".
    static let release = "eed63a35a90dbd46184ca1a6afeb144ee783b5fd"
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theCommittedListIsTheOneTheSDKsSourcesGive() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.repository.appendingPathComponent("Scripts/sdk-api.py").path, "members", try #require(FetchedSDK.path), Self.release]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let committed = try String(contentsOf: Self.repository.appendingPathComponent("Scripts/sdk-api/members-12.19.0.tsv"), encoding: .utf8)
        #expect(listed == committed, "Scripts/sdk-api/members-12.19.0.tsv differs from what the SDK's sources list")
        // What the SDK's guides call is among them: the list is the API, not a fragment of it.
        for member in ["Auth.signIn(with:completion:)", "OAuthProvider.getCredentialWith(_:completion:)", "PhoneAuthProvider.verifyPhoneNumber(_:uiDelegate:completion:)",
                       "AuthErrorCode.accountExistsWithDifferentCredential", "FirebaseApp.configure()"] {
            #expect(listed.contains("\t\(member)\n"), "\(member)")
        }
    }
}

/// A fetched firebase-ios-sdk (a git directory), when one is named.
enum FetchedSDK {
    static let path = ProcessInfo.processInfo.environment["FBAUTH_TEST_IOS_SDK"].flatMap { $0.isEmpty ? nil : $0 }
}

/// Every `AuthErrorCode` has the raw value, `ERROR_` name and message the SDK's AuthErrors.swift
/// gives it at Release 12.19.0, read from the SDK's sources by Scripts/sdk-api.py.
@Suite(.enabled(if: FetchedSDK.path != nil, "FBAUTH_TEST_IOS_SDK is not set (no fetched firebase-ios-sdk to read)"))
struct SDKErrorTableTests {
    @Test func everyCodeIsTheSDKs() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", SDKMemberListTests.repository.appendingPathComponent("Scripts/sdk-api.py").path, "errors",
                             try #require(FetchedSDK.path), SDKMemberListTests.release]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let table = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let rows = table.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count >= 90, "the SDK's table: \(rows.count) codes")
        for row in rows {
            let value = try #require(Int(row[0]))
            let code = try #require(AuthErrorCode(rawValue: value), "\(row[1]) (\(value)) is missing")
            let error = code as NSError
            #expect(error.userInfo[AuthErrorUserInfoNameKey] as? String == row[2], "\(row[1])")
            #expect(error.localizedDescription == row[3], "\(row[1])")
        }
    }
}
