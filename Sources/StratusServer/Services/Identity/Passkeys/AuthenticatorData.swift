/// The authenticator data of a WebAuthn ceremony (WebAuthn §6.1): the SHA-256 of the relying
/// party ID, the flags, the signature counter and, when a passkey is made, its attested
/// credential data (AAGUID, credential ID, COSE public key).
struct AuthenticatorData: Sendable {
    /// The bytes as sent: an assertion's signature covers them.
    let bytes: [UInt8]
    let rpIDHash: [UInt8]
    let flags: UInt8
    let signCount: UInt32
    /// Present when the `AT` flag is set.
    let attestedCredential: AttestedCredential?

    /// A passkey made by the ceremony: its ID and public key (the COSE_Key, decoded and as sent).
    struct AttestedCredential: Sendable {
        let aaguid: [UInt8]
        let credentialID: [UInt8]
        let publicKey: CBOR
        let publicKeyBytes: [UInt8]
    }

    /// User present.
    var userPresent: Bool { flags & 0x01 != 0 }
    /// User verified (a PIN, a fingerprint, the device's passcode).
    var userVerified: Bool { flags & 0x04 != 0 }
    /// Backup eligible: the passkey may be synced (iCloud Keychain, Google Password Manager).
    var backupEligible: Bool { flags & 0x08 != 0 }
    /// Backed up now.
    var backedUp: Bool { flags & 0x10 != 0 }
    private var hasAttestedCredential: Bool { flags & 0x40 != 0 }
    private var hasExtensions: Bool { flags & 0x80 != 0 }

    /// The longest credential ID accepted (WebAuthn §7.1 step 24).
    static let maxCredentialIDBytes = 1023

    /// Reads authenticator data; every byte must belong to a part its flags announce.
    init(_ bytes: [UInt8]) throws(PasskeyError) {
        guard bytes.count >= 37 else { throw .invalid("the authenticator data is shorter than 37 bytes") }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags & 0x40 != 0 {
            guard bytes.count >= offset + 18 else { throw .invalid("the attested credential data ends early") }
            let aaguid = Array(bytes[offset..<offset + 16])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length <= Self.maxCredentialIDBytes else { throw .invalid("the credential ID is longer than 1,023 bytes") }
            guard length > 0, bytes.count >= offset + length else { throw .invalid("the credential ID ends early") }
            let credentialID = Array(bytes[offset..<offset + length])
            offset += length
            var decoder = CBOR.Decoder(bytes, from: offset)
            let key: CBOR
            do { key = try decoder.decode() } catch { throw .invalid("the credential's public key is not CBOR: \(error.reason)") }
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: key,
                                                    publicKeyBytes: Array(bytes[offset..<decoder.offset]))
            offset = decoder.offset
        } else {
            attestedCredential = nil
        }
        if flags & 0x80 != 0 {
            var decoder = CBOR.Decoder(bytes, from: offset)
            guard case .map = try? decoder.decode() else { throw .invalid("the authenticator's extensions are not a CBOR map") }
            offset = decoder.offset
        }
        guard offset == bytes.count else { throw .invalid("the authenticator data has bytes its flags do not announce") }
    }

    /// The checks both ceremonies make of the flags and the relying party (WebAuthn §7.1 steps
    /// 13–17, §7.2 steps 15–18): the RP ID's hash, the user's presence, their verification when
    /// required, and that a passkey not eligible for backup is not backed up.
    func check(rpIDHash expected: [UInt8], requireUserVerification: Bool) throws(PasskeyError) {
        guard rpIDHash == expected else { throw .invalid("the passkey is for another relying party (its RP ID hash differs)") }
        guard userPresent else { throw .invalid("the authenticator did not find the user present") }
        guard userVerified || !requireUserVerification else { throw .invalid("the authenticator did not verify the user, and this server requires it") }
        guard backupEligible || !backedUp else { throw .invalid("the authenticator says the passkey is backed up but not eligible for backup") }
    }
}
