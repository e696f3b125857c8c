import Foundation

extension NSCoder {
    /// The object at `key`, or nil when the archive has none. swift-corelibs-foundation's secure
    /// decoding takes a missing key for a decoding error (and by default stops the program), where
    /// Apple's gives nil: an archive another program wrote (the SDK's, on iOS) may lack a key.
    func decodedIfPresent<T: NSObject & NSCoding>(_ type: T.Type, forKey key: String) -> T? {
        containsValue(forKey: key) ? decodeObject(of: type, forKey: key) : nil
    }

    /// The same, for an object of any of `classes` (a collection and what it holds).
    func decodedIfPresent(of classes: [AnyClass], forKey key: String) -> Any? {
        containsValue(forKey: key) ? decodeObject(of: classes, forKey: key) : nil
    }
}
