import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// JSON over HTTP to an Auth emulator (fbauth's stand-in or Google's), as its REST clients send
/// it; `owner` adds `Authorization: Bearer owner`, which the emulators take as the Admin API's.
public enum EmulatorHTTP {
    /// No JSON came back within 30 seconds.
    public struct NoAnswer: Error, CustomStringConvertible {
        public let description: String
    }

    public static func call(_ method: String, _ host: String, _ path: String, _ body: [String: Any]? = nil, owner: Bool = false) throws -> [String: Any] {
        guard let url = URL(string: "http://\(host)\(path)") else { throw NoAnswer(description: "not a URL: http://\(host)\(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if owner { request.setValue("Bearer owner", forHTTPHeaderField: "Authorization") }
        if let body { request.httpBody = try JSONSerialization.data(withJSONObject: body) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer: Data?
        URLSession.shared.dataTask(with: request) { data, _, _ in answer = data; done.signal() }.resume()
        _ = done.wait(timeout: .now() + 30)
        guard let object = (try? JSONSerialization.jsonObject(with: answer ?? Data())) as? [String: Any] else {
            throw NoAnswer(description: "no JSON answer from \(method) \(path)")
        }
        return object
    }
}
