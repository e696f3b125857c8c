#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LoopbackHTTP
import FBAuthSupport

/// What a browser that fbauth launches is given instead of the start address: a page in a file
/// only this user can read (mode 0600, in the private config directory) that sends the browser
/// on to `http://localhost:PORT/start?n=NONCE`.
///
/// Every user of the machine can read a browser's command line (`/proc/PID/cmdline`, `ps`), and
/// can request the start address before the browser does (2–6 ms against Chromium's
/// 190–410 ms): whoever visits it first gets the sign-in's cookie. So the command line holds
/// only the file's path, and the nonce never leaves this user's files and the loopback
/// connection. (Jupyter hands its browser a token in a "redirect file" for the same reason.)
internal struct LaunchPage: Sendable {
    /// The file.
    internal var path: String { folder.path + "/" + name }
    /// What the browser is given: the file's `file://` URL.
    internal var url: String { "file://" + Self.percentEncodedPath(path) }
    /// The directory it is in, opened through its ancestors: the page is written and removed
    /// through it, and no other user can swap the directory the browser reads it from.
    private let folder: TrustedDirectory
    private let name: String
    /// A directory made for the page when no private directory was given; removed with it.
    private let ownDirectory: String?

    /// `signin-PID-RANDOM.html`: the process id lets a later sign-in remove the pages of
    /// processes that died before removing their own.
    static let namePrefix = "signin-"

    /// Writes the page for `startURL` into `directory` (a new private temporary directory when
    /// nil), named with `unique`.
    internal static func create(in directory: String?, startURL: String, unique: String) throws(BrowserLaunchError) -> LaunchPage {
        let made: String?
        do throws(Platform.FileProblem) {
            made = directory == nil ? try Platform.makeTemporaryDirectory(prefix: "fbauth-") : nil
        } catch {
            throw BrowserLaunchError("cannot write the sign-in page: \(error.description)")
        }
        let path = made ?? Platform.absolutePath(directory ?? "")
        let folder: TrustedDirectory
        do throws(TrustedDirectory.OpenProblem) {
            guard let opened = try TrustedDirectory.open(path, creating: true) else { throw .file(.failed(operation: "cannot create directory", path: path, code: ENOENT)) }
            folder = opened
        } catch {
            if let made { Platform.removeDirectory(made) }
            switch error {
            case .untrusted(let untrusted): throw BrowserLaunchError("the sign-in page would be written to \(path), but \(untrusted.description)")
            case .file(let problem): throw BrowserLaunchError("cannot write the sign-in page: \(problem.description)")
            }
        }
        // The pages of an fbauth killed (SIGKILL) mid-sign-in: each names that sign-in's
        // one-time address, and nothing else would remove them.
        folder.removeFilesOfDeadProcesses(prefix: namePrefix)
        let name = "\(namePrefix)\(Platform.processID)-\(unique).html"
        do throws(Platform.FileProblem) {
            try folder.createPrivateFile(name, Array(html(startURL: startURL).utf8))
        } catch {
            if let made { Platform.removeDirectory(made) }
            throw BrowserLaunchError("cannot write the sign-in page: \(error.description)")
        }
        return LaunchPage(folder: folder, name: name, ownDirectory: made)
    }

    private init(folder: TrustedDirectory, name: String, ownDirectory: String?) {
        self.folder = folder
        self.name = name
        self.ownDirectory = ownDirectory
    }

    /// Removes the page (and its directory, when it was made for it).
    internal func remove() {
        folder.remove(name)
        if let ownDirectory { Platform.removeDirectory(ownDirectory) }
    }

    /// A page that moves on at once, without JavaScript, and sends no referrer.
    static func html(startURL: String) -> String {
        let address = ResultPage.escape(startURL)
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
            <meta http-equiv="refresh" content="0;url=\(address)"><title>fbauth: sign-in</title></head>
            <body><p>Opening the sign-in… If nothing happens, <a href="\(address)">continue</a>.</p></body></html>

            """
    }

    /// A path as the path of a `file://` URL: RFC 3986 unreserved characters and `/` kept,
    /// everything else percent-encoded.
    static func percentEncodedPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { FormEncoding.percentEncode(String($0)) }
            .joined(separator: "/")
    }
}
