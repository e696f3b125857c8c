#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// The stand-in's own signing key for ID tokens (issue 42): a 2048-bit RSA key made once for
/// it by OpenSSL (Python's cryptography), public on purpose: what it signs are emulator tokens,
/// which prove nothing outside an emulator. Its certificate is published where Google publishes
/// securetoken's, so that a server checks the signature of every token the stand-in mints.
enum StandInSigningKey {
    static let kid = "stand-in"

    /// The public key as a JSON Web Key (RFC 7517: `kty`, `kid`, `alg`, `use`, `n`, `e`), as
    /// Google publishes securetoken's and App Check's.
    static func jsonWebKey(kid: String) -> [String: Any] {
        let modulus = stride(from: 0, to: modulusHex.count, by: 2).map { UInt8(modulusHex.dropFirst($0).prefix(2), radix: 16)! }
        return ["kty": "RSA", "kid": kid, "alg": "RS256", "use": "sig", "n": Base64URL.encode(Data(modulus)), "e": "AQAB"]
    }

    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §8.2.1): the encoded block raised to the
    /// private exponent, by the Chinese remainder theorem (RFC 8017 §5.1.2, 2.b): two
    /// exponentiations half as long modulo the primes, about four times faster. Not in constant
    /// time: the key is public on purpose.
    static func sign(_ message: [UInt8]) -> [UInt8] {
        let block = Montgomery.limbs(bigEndian: encodedBlock(for: message, length: 256))
        let atP = primeP.power(primeP.residue(of: block), exponentLimbs: exponentP)
        let atQ = primeQ.power(primeQ.residue(of: block), exponentLimbs: exponentQ)
        let h = primeP.product(coefficient, primeP.difference(atP, primeP.residue(of: atQ)))
        let signature = Montgomery.add(Montgomery.wideProduct(h, primeQ.modulus), atQ).sum
        return Montgomery.bigEndian(signature, count: 256)
    }

    /// The same the long way (the block to the private exponent modulo n), which the tests
    /// hold the fast one to.
    static func signWithoutCRT(_ message: [UInt8]) -> [UInt8] {
        let block = encodedBlock(for: message, length: 256)
        return Montgomery.bigEndian(arithmetic.power(Montgomery.limbs(bigEndian: block), exponentLimbs: privateExponent), count: 256)
    }

    /// EMSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §9.2): 00 01 FF…FF 00, SHA-256's DigestInfo
    /// (note 1) and the digest, `length` bytes. What the stand-in signs, and what it expects a
    /// service account's signature to open to.
    static func encodedBlock(for message: [UInt8], length: Int) -> [UInt8] {
        let digestInfo: [UInt8] = [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
        let encoded = digestInfo + SHA256.hash(message)
        return [0x00, 0x01] + [UInt8](repeating: 0xFF, count: length - encoded.count - 3) + [0x00] + encoded
    }

    private static let arithmetic = Montgomery(modulus: limbs(hex: modulusHex))!
    private static let privateExponent = limbs(hex: privateExponentHex)
    // The key's CRT parts (RFC 8017 §3.2): p, q, d mod (p−1), d mod (q−1), q⁻¹ mod p.
    private static let primeP = Montgomery(modulus: limbs(hex: prime1Hex))!
    private static let primeQ = Montgomery(modulus: limbs(hex: prime2Hex))!
    private static let exponentP = limbs(hex: exponent1Hex)
    private static let exponentQ = limbs(hex: exponent2Hex)
    private static let coefficient = limbs(hex: coefficientHex)

    private static func limbs(hex: String) -> [UInt64] {
        let bytes = stride(from: 0, to: hex.utf8.count, by: 2).map { index in
            UInt8(hex.dropFirst(index).prefix(2), radix: 16)!
        }
        return Montgomery.limbs(bigEndian: bytes)
    }

    static let modulusHex = [
        "c26c603fc59e8e43cd2f1cfa58e80b712c19f3ac6152c68f33be9bf0f045bf1215a46b20a711f870038233a6031efcea",
        "7167de8df449bc668f867e4145c9972054decbde4253d8c2940bb4445b2e5b1c9cf8f1782352a2454d2b76cc2ed7cab0",
        "d15f5f15ed2b5beb01e7e2f58b006bc095ea37699262fa34a4f2d03827008d30b22cc5c5662b8eb99d03d4300968a991",
        "5f2a57640f32ce52e1aab786957cf5848b12bfb0cd4b7875b18ac4cffa0d2dc6cac313a4154d660100c3e335f4a4e6f1",
        "d94a5d89a94a2c267da7017725404ac8fb32b46f223908ecc3b805342d2fc519ecde6683d3792fb39b8c348c0503004a",
        "bdd991c73c64ee0e58c25fa58f219493",
    ].joined()

    static let privateExponentHex = [
        "487242d1308dbafc47c640f9864c7d0b0040715cafed3cc0daaab187efb84590f3108fbc9c94a52af41bbdac2428955c",
        "b4c25c1b30469395f1f04f367a4f3a69994665d81d8609d4c37eb2feefad0fd55326ae2fb295d592964556609229e5c4",
        "ca57cbe22b3c8765441208afaf4a8a5c3a608aa263a24f1273ce68c92bbb5860811848dc65b156f4f121bd9f4e1eba75",
        "08092c0303d9e325bd5b23ae0e28299a37788094e35868269ae28fa2ab4aa36bb844008e92307ed1fb2baf7946164065",
        "1fcc2b075ada4b5569a99cf544a9d5063fc7550a9d0c8e0409246b93dbd4789c839de0c9c1ed09ec36828759fcd5e572",
        "5800c4005eb23155002e2efefe58547d",
    ].joined()

    static let prime1Hex = [
        "dfa7b96feccdf2b7a95a8dffefc0a2b6d1bf52b05e8f07cbbaf6292ee71bda312e76776531106db1ecf5892a00ca27bc",
        "5645e3e53758e46862a875e3f8d33dd82f9ff2244ceba65c2f6e1992fef340226c9545bb041dff4c63e2860f45dd88cb",
        "38934aa0372da6aef9005a7ff58c4fc9cd510ee94b0521af6e867eac02f6b867",
    ].joined()

    static let prime2Hex = [
        "de8a6a7ad1b6bfff7f733747d4c860618ac22b12ad885616036fc02123cd64b3df68e642703c5385966f5f9a43d2faa7",
        "0da603af4d6b8bb91562db4d932ec54d01a6d35f0d21c6e5e190d5ff7b9594fbbe7560f8af98ec06dabe088d66297a72",
        "0f9f5490623f6313d75b6aa0e003791fee331b2ef817d915a8e02ffbb81bd6f5",
    ].joined()

    static let exponent1Hex = [
        "2c2646d3d252214ca210af214ba9a235269876f13be94e27a8637963b9d964abfab905fea2bdd479a006242a7777707a",
        "9c2935c084b9767528ac8a8113185807f9f6bfecec864413c4851e654710aba35ffde382f4601b8a6fd9428f77423103",
        "b4ca569be3e88e13d23180abebc3e3e839307c1a0f6616ed338b372c2b759a97",
    ].joined()

    static let exponent2Hex = [
        "2466bfc41749ad5e3d9abb1024de21e5d2acb01efe03af112abebcceaeec89ec623ee66b37b0a678d382a440b7976b28",
        "a832dfa76d228a585c072f9820db25aad2fa56d8d56d10fbc949c7b7629fb51ef8a87a943324f076ae912714fa010ee6",
        "5967d68d4784d6d0080a0c07049d8cd28c440fce3f06a79bc363e87564482981",
    ].joined()

    static let coefficientHex = [
        "1c01d7137432ad6d4fb621f81fc634dc2bd28e55978781020f55bb0a44a441eee75fd9e79e4de2d858c8ac357737339a",
        "24d503cee9cf0ed7fbdc293a33e986f14c8c3953ad5c059ce1e142bf656ad18c609896d507be966ec220979d007d90aa",
        "5a693225ae0a38ffd93314654b65561118a85d68d887f98df8474a216ab106e0",
    ].joined()

    static let certificatePEM = """
-----BEGIN CERTIFICATE-----
MIICxzCCAa+gAwIBAgIBKjANBgkqhkiG9w0BAQsFADAmMSQwIgYDVQQDDBtmYmF1
dGggc3RhbmQtaW4gc2VjdXJldG9rZW4wIBcNMjYwMTAxMDAwMDAwWhgPMjEyNTEy
MDgwMDAwMDBaMCYxJDAiBgNVBAMMG2ZiYXV0aCBzdGFuZC1pbiBzZWN1cmV0b2tl
bjCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAMJsYD/Fno5DzS8c+ljo
C3EsGfOsYVLGjzO+m/DwRb8SFaRrIKcR+HADgjOmAx786nFn3o30Sbxmj4Z+QUXJ
lyBU3sveQlPYwpQLtERbLlscnPjxeCNSokVNK3bMLtfKsNFfXxXtK1vrAefi9YsA
a8CV6jdpkmL6NKTy0DgnAI0wsizFxWYrjrmdA9QwCWipkV8qV2QPMs5S4aq3hpV8
9YSLEr+wzUt4dbGKxM/6DS3GysMTpBVNZgEAw+M19KTm8dlKXYmpSiwmfacBdyVA
Ssj7MrRvIjkI7MO4BTQtL8UZ7N5mg9N5L7ObjDSMBQMASr3Zkcc8ZO4OWMJfpY8h
lJMCAwEAATANBgkqhkiG9w0BAQsFAAOCAQEAYIBmthh7htTaTwLq1Oyiw3bEGn5x
GUeUqltUjEUwsUobXZz+GzZOWc8nTqsdNt1/XJZabYhSDKdq9vW3D+Idwdg93PRj
tF9Fh5KEFFHY/NGxXDT6qC50NGIHZ/kdAPIkvGH/AQqT6PxfyOkHfrV12Xp5c7qJ
PxdcbvGsTNz2M4AO+pyGVRq4XNtcZggC0tToV7MKLzKsKwK3Io8tSywUQ287pOUZ
1PoeEzsGElcItvOKpZ9P6Ge58yxT+jOFJ1PNIXRReGhzTIFAGXdFBSLY6Kb9FcJt
VF8AOsm8mbdEKv2ZVogZRtBAyy/5QQM/rwDrJQWDYO8MVgKYdyOXlsNB3g==
-----END CERTIFICATE-----
"""
}
