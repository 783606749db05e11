/// *Extension*: the options of `auth/1/{container}/{environment}/passkey/register/options` and
/// `passkey/signup/options`, as WebAuthn's `PublicKeyCredentialCreationOptionsJSON` (binary values
/// base64url): what a browser's `PublicKeyCredential.parseCreationOptionsFromJSON` and Apple's
/// `ASAuthorizationPlatformPublicKeyCredentialProvider` take.
package struct PasskeyCreationOptions: Codable, Sendable, Equatable {
    package struct RelyingParty: Codable, Sendable, Equatable {
        package var id: String
        package var name: String

        package init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    package struct User: Codable, Sendable, Equatable {
        /// The user handle: 64 random bytes, base64url.
        package var id: String
        package var name: String
        package var displayName: String

        package init(id: String, name: String, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }

    package struct Parameters: Codable, Sendable, Equatable {
        package var type = "public-key"
        package var alg: Int64
    }

    package struct Selection: Codable, Sendable, Equatable {
        package var residentKey = "required"
        package var requireResidentKey = true
        package var userVerification: String
    }

    package var challenge: String
    package var rp: RelyingParty
    package var user: User
    package var pubKeyCredParams: [Parameters]
    /// Milliseconds.
    package var timeout: Int64
    package var attestation = "none"
    package var authenticatorSelection: Selection
    /// The account's passkeys, so that an authenticator holding one does not make another.
    package var excludeCredentials: [PasskeyDescriptor]

    package init(challenge: String, rp: RelyingParty, user: User, algorithms: [Int64], timeout: Int64, userVerification: String,
                 excludeCredentials: [PasskeyDescriptor]) {
        self.challenge = challenge
        self.rp = rp
        self.user = user
        pubKeyCredParams = algorithms.map { Parameters(alg: $0) }
        self.timeout = timeout
        authenticatorSelection = Selection(userVerification: userVerification)
        self.excludeCredentials = excludeCredentials
    }
}

/// *Extension*: the options of `passkey/signin/options`, as WebAuthn's
/// `PublicKeyCredentialRequestOptionsJSON`: an empty `allowCredentials` asks for a discoverable
/// passkey (no username typed first).
package struct PasskeyRequestOptions: Codable, Sendable, Equatable {
    package var challenge: String
    package var rpId: String
    package var timeout: Int64
    package var userVerification: String
    package var allowCredentials: [PasskeyDescriptor]

    package init(challenge: String, rpId: String, timeout: Int64, userVerification: String, allowCredentials: [PasskeyDescriptor] = []) {
        self.challenge = challenge
        self.rpId = rpId
        self.timeout = timeout
        self.userVerification = userVerification
        self.allowCredentials = allowCredentials
    }
}

/// A passkey named in options (`PublicKeyCredentialDescriptorJSON`).
package struct PasskeyDescriptor: Codable, Sendable, Equatable {
    package var type = "public-key"
    /// The credential ID, base64url.
    package var id: String
    package var transports: [String]?

    package init(id: String, transports: [String]?) {
        self.id = id
        self.transports = transports
    }
}

/// *Extension*: a passkey made by the authenticator, as a browser's `PublicKeyCredential.toJSON()`
/// gives it (`RegistrationResponseJSON`): the body of `passkey/register`, and with `username` (and
/// optionally `email`) the body of `passkey/signup`. `name` (an extension) names the passkey in the
/// account centre.
package struct PasskeyRegistration: Codable, Sendable, Equatable {
    package struct Response: Codable, Sendable, Equatable {
        package var clientDataJSON: String
        package var attestationObject: String
        package var transports: [String]?

        package init(clientDataJSON: String, attestationObject: String, transports: [String]? = nil) {
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
        }
    }

    package var id: String
    package var rawId: String
    package var type: String
    package var response: Response
    package var name: String?
    /// Sign-up only: the username the options were asked for.
    package var username: String?
    /// Sign-up only: an email address others may invite the user by.
    package var email: String?

    package init(id: String, rawId: String, type: String = "public-key", response: Response, name: String? = nil, username: String? = nil,
                 email: String? = nil) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
        self.name = name
        self.username = username
        self.email = email
    }
}

/// *Extension*: a passkey's assertion, as a browser's `PublicKeyCredential.toJSON()` gives it
/// (`AuthenticationResponseJSON`): the body of `passkey/signin`, and `passkey` in
/// `account/reauthenticate`.
package struct PasskeyAssertion: Codable, Sendable, Equatable {
    package struct Response: Codable, Sendable, Equatable {
        package var clientDataJSON: String
        package var authenticatorData: String
        package var signature: String
        package var userHandle: String?

        package init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String?) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }

    package var id: String
    package var rawId: String
    package var type: String
    package var response: Response

    package init(id: String, rawId: String, type: String = "public-key", response: Response) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
    }
}

/// *Extension*: the body of `passkey/signup/options`.
package struct PasskeySignUpRequest: Codable, Sendable, Equatable {
    package var username: String

    package init(username: String) { self.username = username }
}

/// *Extension*: one passkey in ``AccountResponse``: its credential ID (base64url, what
/// `account/passkeys/{id}/delete` takes), its name, and when it was made and last used (ms).
package struct AccountPasskeyInfo: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var created: Int64
    package var lastUsed: Int64?

    package init(id: String, name: String, created: Int64, lastUsed: Int64?) {
        self.id = id
        self.name = name
        self.created = created
        self.lastUsed = lastUsed
    }
}
