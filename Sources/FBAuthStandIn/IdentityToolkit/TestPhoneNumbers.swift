// Production's test phone numbers (Identity Platform's `testPhoneNumbers`, per project in the
// configuration's `signIn.phoneNumber`, per tenant at its top): a fictional number signs in, and
// enrols or answers as a second factor, with its fixed code; no text is sent, so none is listed
// at /emulator/v1/projects/P/verificationCodes. Google's emulator drops them (firebase-tools
// issue 4290); `fbauth emulator --test-phone-number NUMBER=CODE` adds the project's own.
extension Backend {
    /// The fixed code of `number` for the tenant (its own numbers) or the project; nil when it
    /// is no test number.
    func testPhoneCode(for number: String, tenantId: String?) -> String? {
        if let tenantId {
            return tenants[tenantId]?.settings.testPhoneNumbers[number]
        }
        return phoneNumberSignIn.testPhoneNumbers[number] ?? configuration.testPhoneNumbers[number]
    }

    /// A `testPhoneNumbers` map as production takes it: at most 10 E.164 numbers, each with a
    /// code of 6 digits (the Admin SDKs' own check, which the server makes too).
    static func checkTestPhoneNumbers(_ value: Any?, field: String) throws(APIError) {
        guard let value else { return }
        guard let numbers = value as? [String: Any], numbers.count <= 10,
              numbers.allSatisfy({ isPhoneNumber($0.key) && isTestCode($0.value) })
        else { throw .invalidArgument("Invalid value at '\(field)': up to 10 E.164 numbers, each with a code of 6 digits") }
    }

    static func isTestCode(_ value: Any) -> Bool {
        guard let code = value as? String else { return false }
        return code.count == 6 && code.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
