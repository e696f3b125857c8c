import CallbackFuzzing
import Foundation

// Built with -sanitize=fuzzer -DFUZZING by Scripts/fuzz.sh, libFuzzer calls `fuzzOne` for every
// input. Built normally, the program replays files or directories of inputs (e.g. Fuzz/corpus).
#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    CallbackInputChecks.check(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
@main
struct Replay {
    static func main() {
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: path)).map { $0.map { path + "/" + $0 } } ?? [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                CallbackInputChecks.check(Array(data))
                count += 1
            }
        }
        print("checked \(count) inputs")
    }
}
#endif
