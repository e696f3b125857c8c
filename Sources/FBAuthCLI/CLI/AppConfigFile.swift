#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// The API key and project id from the config files Firebase gives every app: an iOS
/// `GoogleService-Info.plist` (`API_KEY`, `PROJECT_ID`, and `BUNDLE_ID`, `GOOGLE_APP_ID`) or an
/// Android `google-services.json` (`client[].api_key[].current_key`, `project_info.project_id`,
/// and the client's package name, app id and signing-certificate hash). The app's identity is
/// what an API key restricted to that app requires.
package struct AppConfigFile {
    package var apiKey: String
    package var projectId: String
    package var appId: String? = nil
    package var iosBundleId: String? = nil
    package var androidPackage: String? = nil
    package var androidCert: String? = nil

    package static func read(_ path: String, appId: String?) throws(FBAuthError) -> AppConfigFile {
        let read: Data?
        do throws(Platform.FileProblem) {
            read = try Platform.readUserFile(path)
        } catch {
            throw .usage("cannot read --app-config: \(error.description)")
        }
        guard let data = read else { throw .usage("cannot read --app-config '\(path)': no such file") }
        let name = Platform.fileName(of: path)
        if path.hasSuffix(".plist") || data.starts(with: Data("<?xml".utf8)) || data.starts(with: Data("bplist".utf8)) {
            return try plist(data, name: name, appId: appId)
        }
        return try servicesJSON(data, name: name, appId: appId)
    }

    private struct ServiceInfo: Decodable {
        var API_KEY: String?
        var PROJECT_ID: String?
        var GOOGLE_APP_ID: String?
        var BUNDLE_ID: String?
    }

    private static func plist(_ data: Data, name: String, appId: String?) throws(FBAuthError) -> AppConfigFile {
        guard let info = try? PropertyListDecoder().decode(ServiceInfo.self, from: data) else {
            throw .usage("\(name) is not a property list (expected a GoogleService-Info.plist)")
        }
        if let appId, appId != info.GOOGLE_APP_ID, appId != info.BUNDLE_ID {
            throw .usage("\(name) is for app \(info.GOOGLE_APP_ID ?? info.BUNDLE_ID ?? "unknown"), not --app-id \(appId)")
        }
        guard let apiKey = info.API_KEY, !apiKey.isEmpty else { throw .usage("\(name) has no API_KEY") }
        guard let projectId = info.PROJECT_ID, !projectId.isEmpty else { throw .usage("\(name) has no PROJECT_ID") }
        return try AppConfigFile(apiKey: apiKey, projectId: projectId, appId: info.GOOGLE_APP_ID, iosBundleId: info.BUNDLE_ID)
            .checked(in: name, fields: ["API_KEY", "PROJECT_ID", "GOOGLE_APP_ID", "BUNDLE_ID", "", ""])
    }

    private struct Services: Decodable {
        struct ProjectInfo: Decodable { var project_id: String? }
        struct Client: Decodable {
            struct Info: Decodable {
                struct Android: Decodable { var package_name: String? }
                var mobilesdk_app_id: String?
                var android_client_info: Android?
            }
            struct Key: Decodable { var current_key: String? }
            struct OAuthClient: Decodable {
                struct AndroidInfo: Decodable { var certificate_hash: String? }
                var android_info: AndroidInfo?
            }
            var client_info: Info?
            var api_key: [Key]?
            var oauth_client: [OAuthClient]?

            var ids: [String] { [client_info?.mobilesdk_app_id, client_info?.android_client_info?.package_name].compactMap { $0 } }
            var key: String? { api_key?.compactMap(\.current_key).first { !$0.isEmpty } }
        }
        var project_info: ProjectInfo?
        var client: [Client]?
    }

    private static func servicesJSON(_ data: Data, name: String, appId: String?) throws(FBAuthError) -> AppConfigFile {
        guard let services = try? JSONDecoder().decode(Services.self, from: data) else {
            throw .usage("\(name) is neither a GoogleService-Info.plist nor a google-services.json")
        }
        guard let projectId = services.project_info?.project_id, !projectId.isEmpty else {
            throw .usage("\(name) has no project_info.project_id")
        }
        var clients = services.client ?? []
        guard !clients.isEmpty else { throw .usage("\(name) has no client[] entries") }
        let known = clients.flatMap(\.ids).joined(separator: ", ")
        if let appId {
            clients = clients.filter { $0.ids.contains(appId) }
            guard !clients.isEmpty else { throw .usage("\(name) has no client with --app-id \(appId) (it has: \(known))") }
        } else if Set(clients.compactMap(\.key)).count > 1 {
            throw .usage("\(name) describes several apps with different API keys; choose one with --app-id (\(known))")
        }
        let client = clients[0]
        guard let apiKey = client.key else { throw .usage("\(name) has no client[].api_key[].current_key") }
        return try AppConfigFile(
            apiKey: apiKey, projectId: projectId, appId: client.client_info?.mobilesdk_app_id,
            androidPackage: client.client_info?.android_client_info?.package_name,
            androidCert: client.oauth_client?.compactMap { $0.android_info?.certificate_hash }.first)
            .checked(in: name, fields: ["client[].api_key[].current_key", "project_info.project_id", "client_info.mobilesdk_app_id", "",
                                        "android_client_info.package_name", "oauth_client[].android_info.certificate_hash"])
    }

    /// Refuses values that would be unsafe to send or save: the API key goes into URLs, the app
    /// identity into HTTP headers (a config file from a cloned repository must not inject
    /// header lines), the project id into messages. `fields` names apiKey, projectId, appId,
    /// iosBundleId, androidPackage and androidCert as this kind of file does.
    private func checked(in name: String, fields: [String]) throws(FBAuthError) -> AppConfigFile {
        if !SettingChecks.isAPIKey(apiKey) { throw .usage("\(name): \(fields[0]) is not an API key (1 to 200 printable characters without spaces)") }
        if !SettingChecks.isProjectID(projectId) {
            throw .usage("\(name): \(fields[1]) is not a project id (lower-case letters, digits and hyphens)")
        }
        for (field, value) in zip(fields[2...], [appId, iosBundleId, androidPackage, androidCert]) {
            if let value, !HeaderValue.isSafe(value) {
                throw .usage("\(name): \(field) holds a line break, control or non-ASCII character, and is sent as an HTTP header; fix the file")
            }
        }
        return self
    }
}
