import Foundation
import StratusCore

/// One passkey of the account, as ``Account/passkeys`` lists it.
public struct AccountPasskey: Sendable, Equatable, Identifiable {
    /// Its credential ID (base64url), what ``Container/removePasskey(id:)`` takes.
    public var id: String
    /// Its name: the one given when it was added, or the platform it was made on.
    public var name: String
    /// When it was added.
    public var created: Date
    /// When it last signed in or proved who the user is, if ever.
    public var lastUsed: Date?
}

/// Passkeys (a Stratus extension): each call takes or returns the JSON that browsers'
/// `PublicKeyCredential` and Apple's AuthenticationServices speak — options as
/// `PublicKeyCredentialCreationOptionsJSON` and `…RequestOptionsJSON`, credentials as
/// `RegistrationResponseJSON` and `AuthenticationResponseJSON`, binary values in base64url — so an
/// app hands them to the platform and back unchanged.
///
/// On Apple platforms, an app turns the options into an
/// `ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier:)` request
/// (`createCredentialRegistrationRequest(challenge:name:userID:)`,
/// `createCredentialAssertionRequest(challenge:)`) and the result's `rawClientDataJSON`,
/// `rawAttestationObject`, `rawAuthenticatorData`, `signature`, `userID` and `credentialID` into
/// that JSON (base64url); the app needs the `webcredentials:` associated domain of its relying
/// party (docs/identity.md). That glue is not compiled here (it needs AuthenticationServices).
extension Container {
    /// Options to create an account named `username` whose only sign-in method is a passkey.
    public func passkeySignUpOptions(username: String) async throws -> Data {
        Data(try await send(path: authPath("passkey/signup/options"), body: .bytes(Array(try JSONEncoder().encode(PasskeySignUpRequest(username: username))))))
    }

    /// Creates the account with the passkey the platform made from ``passkeySignUpOptions(username:)``
    /// and signs in as it; returns the user's record name.
    @discardableResult
    public func signUp(passkey credential: Data, username: String, email: String? = nil) async throws -> String {
        var registration = try Self.credential(PasskeyRegistration.self, from: credential)
        registration.username = username
        registration.email = email
        let body = try await send(path: authPath("passkey/signup"), body: .bytes(Array(try JSONEncoder().encode(registration))))
        return adopt(try Self.decode(SignInResponse.self, from: body), username: username)
    }

    /// Options to sign in with a passkey the user picks (no username typed first), or to prove who
    /// they are with one (``reauthenticate(passkey:)``).
    public func passkeySignInOptions() async throws -> Data {
        Data(try await send(path: authPath("passkey/signin/options"), body: .bytes(Array("{}".utf8))))
    }

    /// Signs in with the passkey's assertion for ``passkeySignInOptions()``; returns the user's
    /// record name.
    @discardableResult
    public func signIn(passkey assertion: Data) async throws -> String {
        let checked = try Self.credential(PasskeyAssertion.self, from: assertion)
        let body = try await send(path: authPath("passkey/signin"), body: .bytes(Array(try JSONEncoder().encode(checked))))
        return adopt(try Self.decode(SignInResponse.self, from: body), username: nil)
    }

    /// Options to add a passkey to the signed-in account; needs fresh proof (see
    /// ``reauthenticate(password:)``).
    public func passkeyRegistrationOptions() async throws -> Data {
        Data(try await send(path: authPath("passkey/register/options"), body: .bytes(Array("{}".utf8))))
    }

    /// Adds the passkey the platform made from ``passkeyRegistrationOptions()`` to the signed-in
    /// account, named `name` (by default after the platform it was made on); needs fresh proof.
    public func addPasskey(_ credential: Data, name: String? = nil) async throws {
        var registration = try Self.credential(PasskeyRegistration.self, from: credential)
        registration.name = name
        _ = try await send(path: authPath("passkey/register"), body: .bytes(Array(try JSONEncoder().encode(registration))))
    }

    /// Proves who the user is again with a passkey's assertion for ``passkeySignInOptions()``, as
    /// ``reauthenticate(password:)`` does.
    public func reauthenticate(passkey assertion: Data) async throws {
        try await reauthenticate(ReauthenticationRequest(passkey: try Self.credential(PasskeyAssertion.self, from: assertion)))
    }

    /// Removes one of the account's passkeys, by its ``AccountPasskey/id``; needs fresh proof, and
    /// is refused for the account's last way to sign in.
    public func removePasskey(id: String) async throws {
        // A credential ID is base64url: letters, digits, - and _ need no escaping.
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_"))) ?? id
        _ = try await send(path: authPath("account/passkeys/\(escaped)/delete"), body: .bytes(Array("{}".utf8)))
    }

    private static func credential<T: Decodable>(_ type: T.Type, from json: Data) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: json)
        } catch {
            throw CloudError(.invalidArguments, "the passkey's credential is not WebAuthn's JSON: \(error)")
        }
    }
}
