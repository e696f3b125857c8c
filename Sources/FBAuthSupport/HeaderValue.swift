/// What may go into an HTTP header fbauth sends: printable ASCII. A line break would end the
/// header and start another (`--referer $'x\r\nX-Evil: 1'`, a plist's `BUNDLE_ID` holding
/// `&#13;&#10;`), so values from options and app-config files are checked with this before
/// anything is sent, and the client checks every header once more.
package enum HeaderValue {
    package static func isSafe(_ value: String) -> Bool {
        value.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }
}
