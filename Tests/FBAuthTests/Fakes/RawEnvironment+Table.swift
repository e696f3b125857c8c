@testable import FBAuth
import Foundation
import FBAuthSupport

extension RawEnvironment {
    /// A fixed environment, as `fbauth token`'s quick path reads the live one. Its values are
    /// copied to memory kept for the life of the test process, as libc keeps the environment.
    static func table(_ values: [String: String]) -> RawEnvironment {
        let copies = values.mapValues { value in UnsafeRawBufferPointer(start: strdup(value), count: value.utf8.count) }
        return RawEnvironment { name in copies[String(cString: name)] }
    }
}
