import Dispatch
import FBAuth

/// Runs one of the library's completion-handler calls and waits for its result: fbauth's
/// commands are blocking code on the main thread. The library calls back on a thread of its
/// own, so waiting needs no Swift concurrency thread (and cannot starve one in the in-process
/// tests, which run on them).
enum Waiting {
    static func result<T: Sendable>(_ start: (@escaping @Sendable (Result<T, FBAuthError>) -> Void) -> Void) throws(FBAuthError) -> T {
        let box = ResultBox<T>()
        start { result in
            box.result = result
            box.done.signal()
        }
        box.done.wait()
        // The semaphore orders the write before this read.
        return try box.result!.get()
    }

    private final class ResultBox<T: Sendable>: @unchecked Sendable {
        var result: Result<T, FBAuthError>?
        let done = DispatchSemaphore(value: 0)
    }
}
