import Crypto
import Foundation
import StratusCore

/// Passkeys (WebAuthn): making one for a signed-in account or a new one, signing in with one,
/// and proving who one is with one (``AccountCentre``).
///
/// Every check of WebAuthn §7.1 and §7.2 is made: the challenge is this server's, for this
/// ceremony and caller, unexpired and used once (``PasskeyChallenge``, ``ReplayStore``); the
/// client data's type and origin (exactly one of the container's, never cross-origin); the
/// relying party's ID hash; the user's presence, and their verification unless configured
/// otherwise; the backup flags; attestation `none` only; ES256, EdDSA or RS256 keys; a credential
/// ID of at most 1,023 bytes, not registered already; the assertion's signature over the
/// authenticator data and the client data's hash, with the stored key; the user handle the
/// passkey was made with; and a signature counter that grows when either side is non-zero (a
/// passkey that always says 0, as synced ones do, passes; one that goes back is refused as a
/// clone). An unknown credential is answered exactly like a wrong signature.
package struct PasskeySignIn: Sendable {
    let configuration: WebAuthnConfiguration
    let storage: any StratusStorage
    let auth: AuthService
    /// Mails users the changes to how their accounts sign in.
    let notices: SecurityNotices
    /// What challenges are authenticated with, derived from the store's secret.
    let challengeKey: SymmetricKey
    let clock: ServerClock

    /// The longest name a passkey is given.
    static let maxNameCharacters = 64

    /// Whether the container has a relying party, so that its users may use passkeys.
    package func isSetUp(for containerID: String) -> Bool {
        configuration.relyingParties[containerID] != nil
    }

    /// `passkey/register/options`: options to make a passkey for `user` (signed in, with fresh
    /// proof), excluding the passkeys they have.
    package func registrationOptions(for user: StoredUser, environment: ContainerEnvironment) async throws -> PasskeyCreationOptions {
        let party = try relyingParty(user.containerID)
        let existing = try await storage.read { try await $0.passkeys(user: user.userRecordName) }
        let handle = existing.first.map { Array($0.userHandle) } ?? SecretGenerator.randomBytes(PasskeyChallenge.userHandleBytes)
        let challenge = PasskeyChallenge.issue(.create, to: audience(user.containerID, environment, subject: user.userRecordName), userHandle: handle,
                                               key: challengeKey, now: clock.milliseconds)
        return creationOptions(challenge, party: party, containerID: user.containerID, username: user.username, excluding: existing)
    }

    /// `passkey/signup/options`: options to make an account named `username` with a passkey and
    /// no password; `EXISTS` when the name is taken.
    package func signUpOptions(username: String, containerID: String, environment: ContainerEnvironment,
                               client: String) async throws -> PasskeyCreationOptions {
        try AuthService.validateUsername(username)
        let party = try relyingParty(containerID)
        try await auth.throttleSignIn(from: client)
        if try await storage.read({ try await $0.user(containerID: containerID, username: username) }) != nil {
            throw CloudKitError(.exists, "the username '\(username)' is taken")
        }
        let challenge = PasskeyChallenge.issue(.create, to: audience(containerID, environment, subject: "signup:" + username),
                                               userHandle: SecretGenerator.randomBytes(PasskeyChallenge.userHandleBytes),
                                               key: challengeKey, now: clock.milliseconds)
        return creationOptions(challenge, party: party, containerID: containerID, username: username, excluding: [])
    }

    /// `passkey/signin/options`: options to sign in with a discoverable passkey (or prove who one
    /// is with it).
    package func signInOptions(containerID: String, environment: ContainerEnvironment, client: String) async throws -> PasskeyRequestOptions {
        let party = try relyingParty(containerID)
        try await auth.throttleSignIn(from: client)
        let challenge = PasskeyChallenge.issue(.get, to: audience(containerID, environment, subject: ""), key: challengeKey, now: clock.milliseconds)
        return PasskeyRequestOptions(challenge: Base64URL.encode(Data(challenge.bytes)), rpId: party.id, timeout: PasskeyChallenge.lifetime.milliseconds,
                                     userVerification: userVerification)
    }

    /// `passkey/register`: stores the passkey the authenticator made for the signed-in `user`
    /// (whose fresh proof the caller checked).
    package func register(_ registration: PasskeyRegistration, for user: StoredUser, environment: ContainerEnvironment, device: String) async throws {
        let made = try verifyCreation(registration, audience: audience(user.containerID, environment, subject: user.userRecordName))
        let passkey = stored(made, registration, user: user.userRecordName, containerID: user.containerID, device: device)
        try await useChallenge(made.challenge, failure: CloudKitError.badRequest)
        try await storage.write { [notices] transaction in
            if let handle = try await transaction.passkeys(user: user.userRecordName).first?.userHandle, handle != passkey.userHandle {
                throw CloudKitError.badRequest("the options were for another passkey of this account: ask for new options")
            }
            try await transaction.insertPasskey(passkey)
            try await notices.notify(user, "A passkey was added to your account", in: transaction)
        }
        notices.sent()
    }

    /// `passkey/signup`: makes an account with the passkey as its only sign-in method, and signs
    /// it in; returns the answer and the new user (whose email address, if any, is not verified).
    package func signUp(_ registration: PasskeyRegistration, containerID: String, environment: ContainerEnvironment,
                        from origin: SessionOrigin) async throws -> (SignInResponse, StoredUser) {
        guard let username = registration.username else { throw CloudKitError.badRequest("give the username the options were asked for") }
        try AuthService.validateUsername(username)
        if let email = registration.email { try AuthService.validateEmail(email) }
        try await auth.throttleSignUp(from: origin.client)
        let made = try verifyCreation(registration, audience: audience(containerID, environment, subject: "signup:" + username))
        let user = StoredUser(userRecordName: SecretGenerator.userRecordName(), containerID: containerID, username: username, passwordHash: "",
                              createdAt: clock.milliseconds, email: registration.email)
        let passkey = stored(made, registration, user: user.userRecordName, containerID: containerID, device: origin.device)
        try await useChallenge(made.challenge, failure: CloudKitError.badRequest)
        let response = try await storage.write { [auth] transaction in
            try await transaction.insertUser(user)
            try await transaction.insertPasskey(passkey)
            return try await auth.openSession(for: user, environment: environment, from: origin, in: transaction)
        }
        return (response, user)
    }

    /// `passkey/signin`: signs in the user whose passkey made the assertion.
    package func signIn(_ assertion: PasskeyAssertion, containerID: String, environment: ContainerEnvironment,
                        from origin: SessionOrigin) async throws -> SignInResponse {
        try await auth.throttleSignIn(from: origin.client)
        let checked = try checkAssertion(assertion, containerID: containerID, environment: environment)
        try await useChallenge(checked.challenge, failure: Self.failed)
        return try await storage.write { [auth] transaction in
            let user = try await accept(checked, containerID: containerID, in: transaction)
            return try await auth.openSession(for: user, environment: environment, from: origin, in: transaction)
        }
    }

    /// The signed-in user, once one of their passkeys made the assertion (a proof for the
    /// account centre).
    package func confirmedUser(_ session: StoredSession, _ assertion: PasskeyAssertion) async throws -> StoredUser {
        let checked = try checkAssertion(assertion, containerID: session.containerID, environment: session.environment)
        try await useChallenge(checked.challenge, failure: Self.failed)
        return try await storage.write { transaction in
            let user = try await accept(checked, containerID: session.containerID, in: transaction)
            guard user.userRecordName == session.userRecordName else {
                throw CloudKitError(.authenticationFailed, "this passkey is not one of the account's")
            }
            return user
        }
    }

    // MARK: - Checks

    /// What a creation ceremony proved: the passkey, and the challenge to use up.
    private struct MadePasskey {
        let challenge: PasskeyChallenge
        let credentialID: String
        let authenticatorData: AuthenticatorData
        let credential: AuthenticatorData.AttestedCredential
    }

    /// WebAuthn §7.1's checks of a new passkey, but for using the challenge up and the
    /// credential ID being new, which the store's transaction does.
    private func verifyCreation(_ registration: PasskeyRegistration, audience: PasskeyChallenge.Audience) throws(CloudKitError) -> MadePasskey {
        do {
            let party = try relyingParty(audience.containerID)
            let rawID = try Self.credentialID(id: registration.id, rawId: registration.rawId, type: registration.type)
            let clientData = try Self.decoded(registration.response.clientDataJSON, "clientDataJSON")
            let challenge = try checkClientData(clientData, type: "webauthn.create", purpose: .create, audience: audience, party: party)
            var decoder = CBOR.Decoder(try Self.decoded(registration.response.attestationObject, "attestationObject"))
            let attestation: CBOR
            do { attestation = try decoder.decode() } catch { throw PasskeyError.invalid("the attestation object is not CBOR: \(error.reason)") }
            guard decoder.isAtEnd, let format = attestation[text: "fmt"]?.textString, let statement = attestation[text: "attStmt"],
                  let authenticatorBytes = attestation[text: "authData"]?.byteString else {
                throw PasskeyError.invalid("the attestation object is not a map of fmt, attStmt and authData")
            }
            guard format == "none", statement == .map([]) else {
                throw PasskeyError.invalid("attestation '\(format)' is not accepted: this server asks for none")
            }
            let data = try AuthenticatorData(authenticatorBytes)
            try data.check(rpIDHash: Array(SHA256.hash(data: Data(party.id.utf8))), requireUserVerification: configuration.requiresUserVerification)
            guard let credential = data.attestedCredential else { throw PasskeyError.invalid("the authenticator data holds no new passkey") }
            guard credential.credentialID == rawID else { throw PasskeyError.invalid("the credential ID differs from the authenticator's") }
            _ = try PasskeyPublicKey(cose: credential.publicKey)
            return MadePasskey(challenge: challenge, credentialID: Base64URL.encode(Data(rawID)), authenticatorData: data, credential: credential)
        } catch let error as PasskeyError {
            throw .badRequest(error.reason)
        } catch let error as CloudKitError {
            throw error
        } catch {
            throw .badRequest("\(error)")
        }
    }

    /// An assertion whose parts are well formed and whose client data and authenticator data
    /// passed their checks; the stored passkey's are left (``accept(_:containerID:in:)``).
    private struct CheckedAssertion {
        let challenge: PasskeyChallenge
        let credentialID: String
        let clientData: [UInt8]
        let authenticatorData: AuthenticatorData
        let signature: [UInt8]
        let userHandle: [UInt8]?
    }

    /// WebAuthn §7.2's checks that need no stored passkey: the client data (its challenge
    /// included, not used up yet) and the authenticator data's RP ID hash and flags.
    private func checkAssertion(_ assertion: PasskeyAssertion, containerID: String,
                                environment: ContainerEnvironment) throws(CloudKitError) -> CheckedAssertion {
        do {
            let party = try relyingParty(containerID)
            let rawID = try Self.credentialID(id: assertion.id, rawId: assertion.rawId, type: assertion.type)
            let clientData = try Self.decoded(assertion.response.clientDataJSON, "clientDataJSON")
            let challenge = try checkClientData(clientData, type: "webauthn.get", purpose: .get,
                                                audience: audience(containerID, environment, subject: ""), party: party)
            let data = try AuthenticatorData(try Self.decoded(assertion.response.authenticatorData, "authenticatorData"))
            try data.check(rpIDHash: Array(SHA256.hash(data: Data(party.id.utf8))), requireUserVerification: configuration.requiresUserVerification)
            return CheckedAssertion(challenge: challenge, credentialID: Base64URL.encode(Data(rawID)), clientData: clientData, authenticatorData: data,
                                    signature: try Self.decoded(assertion.response.signature, "signature"),
                                    userHandle: try assertion.response.userHandle.map { try Self.decoded($0, "userHandle") })
        } catch let error as PasskeyError {
            throw Self.failed(error.reason)
        } catch let error as CloudKitError {
            throw error
        } catch {
            throw Self.failed("\(error)")
        }
    }

    /// The rest of §7.2, in `transaction`: the stored passkey, its user handle, the signature,
    /// and a counter that grows (recorded in one conditional update, so two uses of a cloned
    /// passkey at once cannot both pass); returns the passkey's user.
    private func accept(_ checked: CheckedAssertion, containerID: String, in transaction: any StorageTransaction) async throws -> StoredUser {
        // An unknown passkey, another user's handle and a wrong signature get one answer.
        let notAccepted = Self.failed("the passkey was not accepted: its credential, user handle or signature is not valid here")
        let signed = checked.authenticatorData.bytes + SHA256.hash(data: checked.clientData)
        guard let passkey = try await transaction.passkey(containerID: containerID, credentialID: checked.credentialID),
              let userHandle = checked.userHandle, PasswordHasher.constantTimeEquals(userHandle, passkey.userHandle) else {
            // A signature is checked all the same, so that the time taken does not tell either.
            _ = Self.decoyKey.isValidSignature(checked.signature, for: signed)
            throw notAccepted
        }
        var decoder = CBOR.Decoder(Array(passkey.publicKey))
        guard let cose = try? decoder.decode(), let key = try? PasskeyPublicKey(cose: cose), key.isValidSignature(checked.signature, for: signed) else {
            throw notAccepted
        }
        let count = Int64(checked.authenticatorData.signCount)
        guard try await transaction.setPasskeyUsed(containerID: containerID, credentialID: passkey.credentialID, signCount: count,
                                                   backedUp: checked.authenticatorData.backedUp, at: clock.milliseconds) else {
            throw Self.failed("the passkey's signature counter did not grow (\(count) after \(passkey.signCount)): it may have been cloned")
        }
        guard let user = try await transaction.user(recordName: passkey.userRecordName) else { throw notAccepted }
        return user
    }

    /// The key an assertion of an unknown passkey is checked against (it never verifies).
    private static let decoyKey = PasskeyPublicKey.es256(P256.Signing.PrivateKey().publicKey)

    private static func failed(_ reason: String) -> CloudKitError {
        CloudKitError(.authenticationFailed, reason)
    }

    /// The client data's checks: its type, the challenge (this server's, for this ceremony and
    /// caller, unexpired), an origin of the container's, and not from a frame of another origin.
    private func checkClientData(_ json: [UInt8], type: String, purpose: PasskeyChallenge.Purpose, audience: PasskeyChallenge.Audience,
                                 party: WebAuthnConfiguration.RelyingParty) throws(PasskeyError) -> PasskeyChallenge {
        struct ClientData: Decodable {
            var type: String
            var challenge: String
            var origin: String
            var crossOrigin: Bool?
            var topOrigin: String?
        }
        guard let clientData = try? JSONDecoder().decode(ClientData.self, from: Data(json)) else {
            throw .invalid("clientDataJSON is not WebAuthn's client data")
        }
        guard clientData.type == type else { throw .invalid("the client data is of type '\(clientData.type)', not '\(type)'") }
        guard let challenge = Base64URL.decode(clientData.challenge) else { throw .invalid("the client data's challenge is not base64url") }
        let checked = try PasskeyChallenge.check(Array(challenge), for: purpose, to: audience, key: challengeKey, now: clock.milliseconds)
        guard party.origins.contains(clientData.origin) else { throw .invalid("the origin '\(clientData.origin)' is not one of this container's") }
        guard clientData.crossOrigin != true, clientData.topOrigin == nil else { throw .invalid("the ceremony ran in a frame of another origin") }
        return checked
    }

    /// Uses the challenge up, in a transaction of its own (a ceremony that fails later has used
    /// it too), or throws `failure` when it was used already.
    private func useChallenge(_ challenge: PasskeyChallenge, failure: (String) -> CloudKitError) async throws {
        let now = clock.milliseconds
        guard try await storage.write({ try await $0.useOnce(challenge.replayKey, until: challenge.expiry, now: now) }) else {
            throw failure("this challenge was used already: ask for new options")
        }
    }

    // MARK: - Parts

    private func relyingParty(_ containerID: String) throws(CloudKitError) -> WebAuthnConfiguration.RelyingParty {
        guard let party = configuration.relyingParties[containerID] else {
            throw .badRequest("passkeys are not set up for this container (its operator gives --webauthn-rp-id and --webauthn-origin)")
        }
        return party
    }

    private func audience(_ containerID: String, _ environment: ContainerEnvironment, subject: String) -> PasskeyChallenge.Audience {
        PasskeyChallenge.Audience(containerID: containerID, environment: environment.rawValue, subject: subject)
    }

    private var userVerification: String { configuration.requiresUserVerification ? "required" : "preferred" }

    private func creationOptions(_ challenge: PasskeyChallenge, party: WebAuthnConfiguration.RelyingParty, containerID: String, username: String,
                                 excluding existing: [StoredPasskey]) -> PasskeyCreationOptions {
        PasskeyCreationOptions(challenge: Base64URL.encode(Data(challenge.bytes)), rp: .init(id: party.id, name: containerID),
                               user: .init(id: Base64URL.encode(Data(challenge.userHandle ?? [])), name: username, displayName: username),
                               algorithms: PasskeyPublicKey.algorithms, timeout: PasskeyChallenge.lifetime.milliseconds,
                               userVerification: userVerification,
                               excludeCredentials: existing.map { PasskeyDescriptor(id: $0.credentialID, transports: $0.transports.isEmpty ? nil : $0.transports) })
    }

    private func stored(_ made: MadePasskey, _ registration: PasskeyRegistration, user: String, containerID: String, device: String) -> StoredPasskey {
        let transports = (registration.response.transports ?? []).prefix(8).filter { $0.utf8.count <= 32 && $0.allSatisfy { $0.isLetter || $0 == "-" } }
        let named = SessionOrigin(client: "", device: registration.name ?? "").device.prefix(Self.maxNameCharacters)
        let fallback = Self.platform(ofDevice: device).map { "Passkey on \($0)" } ?? "Passkey"
        return StoredPasskey(containerID: containerID, credentialID: made.credentialID, userRecordName: user, userHandle: Data(made.challenge.userHandle ?? []),
                             publicKey: Data(made.credential.publicKeyBytes), signCount: Int64(made.authenticatorData.signCount),
                             backupEligible: made.authenticatorData.backupEligible, backedUp: made.authenticatorData.backedUp,
                             transports: Array(transports), name: named.isEmpty ? fallback : String(named), createdAt: clock.milliseconds)
    }

    /// The platform a `User-Agent` names, for the name of a passkey made without one.
    static func platform(ofDevice device: String) -> String? {
        let platforms = [("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Macintosh", "Mac"), ("Mac OS X", "Mac"),
                         ("Windows", "Windows"), ("CrOS", "ChromeOS"), ("Linux", "Linux")]
        return platforms.first { device.contains($0.0) }?.1
    }

    /// The credential's raw ID, after checking its type and that `id` is the same bytes.
    private static func credentialID(id: String, rawId: String, type: String) throws(PasskeyError) -> [UInt8] {
        guard type == "public-key" else { throw .invalid("the credential's type is '\(type)', not 'public-key'") }
        let raw = try decoded(rawId, "rawId")
        guard Base64URL.decode(id).map(Array.init) == raw, !raw.isEmpty else { throw .invalid("the credential's id and rawId differ") }
        guard raw.count <= AuthenticatorData.maxCredentialIDBytes else { throw .invalid("the credential ID is longer than 1,023 bytes") }
        return raw
    }

    private static func decoded(_ text: String, _ name: String) throws(PasskeyError) -> [UInt8] {
        guard let data = Base64URL.decode(text) else { throw .invalid("\(name) is not base64url") }
        return Array(data)
    }
}
