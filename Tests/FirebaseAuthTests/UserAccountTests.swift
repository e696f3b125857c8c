import FBAuthStandIn
import FirebaseAuth
import Foundation
import Testing

/// Issue 48: the account members of the SDK's `User`, against the stand-in: each changes the
/// account on the server and the same `User` object, as the SDK's live user does.
@Suite(.serialized) struct UserAccountTests {
    @Test func reloadTakesAChangeMadeElsewhere() async throws {
        let setup = try StandInApp()
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        #expect(!user.isEmailVerified)
        setup.standIn.verifyEmail(uid: user.uid)
        #expect(!user.isEmailVerified, "nothing changes until reloaded")
        try await user.reload()
        #expect(user.isEmailVerified)
    }

    @Test func aNewPasswordIsTheOneThatSignsIn() async throws {
        let setup = try StandInApp()
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        try await user.updatePassword(to: "battery staple horse")
        #expect(setup.standIn.password(uid: user.uid) == "battery staple horse")
        let again = try await setup.auth.signIn(withEmail: "pat@example.com", password: "battery staple horse").user
        #expect(again.uid == user.uid)
        await #expect { _ = try await setup.auth.signIn(withEmail: "pat@example.com", password: "correct horse battery") } throws: { error in
            [AuthErrorCode.wrongPassword, .invalidCredential].contains((error as? AuthErrorCode)?.code)
        }
    }

    @Test func verificationMailsAreSent() async throws {
        let setup = try StandInApp()
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        try await user.sendEmailVerification()
        #expect(setup.standIn.latestOobLink(sentTo: "pat@example.com", requestType: "VERIFY_EMAIL") != nil)
        try await user.sendEmailVerification(beforeUpdatingEmail: "pat2@example.com")
        // The stand-in files the code under the account's address, as Google's emulator lists it.
        let change = try #require(setup.standIn.latestOobLink(sentTo: "pat@example.com", requestType: "VERIFY_AND_CHANGE_EMAIL"))
        #expect(change.contains("mode=verifyAndChangeEmail"), "\(change)")
        #expect(user.email == "pat@example.com", "the address changes only once the link is opened")
    }

    @Test func aProfileChangeIsCommittedToTheSameUser() async throws {
        let setup = try StandInApp()
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        let change = user.createProfileChangeRequest()
        change.displayName = "Pat"
        change.photoURL = URL(string: "https://example.com/pat.png")
        try await change.commitChanges()
        #expect(user.displayName == "Pat" && user.photoURL?.absoluteString == "https://example.com/pat.png")
        #expect(setup.standIn.users.first { $0.uid == user.uid }?.displayName == "Pat")
        // Only what is set changes.
        let rename = user.createProfileChangeRequest()
        rename.displayName = "Patricia"
        try await rename.commitChanges()
        #expect(user.displayName == "Patricia" && user.photoURL?.absoluteString == "https://example.com/pat.png")
    }

    @Test func metadataSaysWhenTheAccountWasMade() async throws {
        let setup = try StandInApp()
        let before = Date().addingTimeInterval(-60)
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        let made = try #require(user.metadata.creationDate)
        let last = try #require(user.metadata.lastSignInDate)
        #expect(made > before && made < Date().addingTimeInterval(60) && last >= made.addingTimeInterval(-1))
    }
}
