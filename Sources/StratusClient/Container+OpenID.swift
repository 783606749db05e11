import Foundation
import StratusCore

/// An OpenID Connect or GitHub identity linked to the account, as ``Account/providers`` lists it.
public struct AccountProvider: Sendable, Equatable, Identifiable {
    /// The provider's name on the server (`google`, `github`), what
    /// ``Container/unlinkProvider(_:)`` takes.
    public var id: String
    /// The address the provider gave, if any.
    public var email: String?
    /// Whether the provider said ``email`` is verified.
    public var isEmailVerified: Bool
    /// When it was linked.
    public var linked: Date
    /// When it last signed in or proved who the user is.
    public var lastUsed: Date?
}

/// Sign-in with OpenID Connect providers (Google, or any the server's operator configured) for
/// native apps, a Stratus extension: the app runs the provider's authorization-code flow with PKCE
/// itself (on Apple platforms in an `ASWebAuthenticationSession`, never a web view; on Android in a
/// Custom Tab), with a `nonce` of its own in the request, and hands the ID token and that nonce to
/// the server, which checks them (docs/identity.md). GitHub gives no ID token: apps sign in with
/// GitHub through the server's web flow.
extension Container {
    /// Signs in with `provider`'s ID token and the nonce the app put in its request; the first
    /// sign-in of an identity creates its account where the server allows sign-up with that
    /// provider. Returns the user's record name.
    @discardableResult
    public func signIn(provider: String, idToken: String, nonce: String) async throws -> String {
        let body = try await send(path: authPath("oidc/\(Self.escaped(provider))"),
                                  body: .bytes(Array(try JSONEncoder().encode(OpenIDSignInRequest(idToken: idToken, nonce: nonce)))))
        return adopt(try Self.decode(SignInResponse.self, from: body), username: nil)
    }

    /// Links `provider`'s identity (its ID token and nonce) to the signed-in account, so that it
    /// signs in to it too; needs fresh proof.
    public func linkProvider(_ provider: String, idToken: String, nonce: String) async throws {
        _ = try await send(path: authPath("oidc/\(Self.escaped(provider))/link"),
                           body: .bytes(Array(try JSONEncoder().encode(OpenIDSignInRequest(idToken: idToken, nonce: nonce)))))
    }

    /// Proves who the user is again with a fresh ID token of a provider linked to the account, as
    /// ``reauthenticate(password:)`` does.
    public func reauthenticate(provider: String, idToken: String, nonce: String) async throws {
        try await reauthenticate(ReauthenticationRequest(identityToken: idToken, nonce: nonce, provider: provider))
    }

    /// Unlinks `provider` from the account; needs fresh proof, and is refused for the account's
    /// last way to sign in.
    public func unlinkProvider(_ provider: String) async throws {
        _ = try await send(path: authPath("account/providers/\(Self.escaped(provider))/delete"), body: .bytes(Array("{}".utf8)))
    }

    private static func escaped(_ provider: String) -> String {
        provider.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-"))) ?? provider
    }
}
