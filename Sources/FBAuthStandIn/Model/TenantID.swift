/// An Identity Platform tenant id: letters, digits and hyphens, at most 63 characters
/// (`tenant-1-a2b3c`). Every tenant id the stand-in takes — a request's `tenantId`, the hosted
/// handler's `tid`, an import — is checked against it before it is kept, because tenant ids end
/// up in export file names (`accounts-TENANT.json`).
enum TenantID {
    static let form = "letters, digits and hyphens, at most 63 characters"

    static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 63
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "-") }
    }
}
