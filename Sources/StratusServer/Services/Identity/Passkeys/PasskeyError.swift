/// Why a passkey ceremony's credential was refused; the service answers it as
/// `AUTHENTICATION_FAILED` for a sign-in or a proof, `BAD_REQUEST` for a registration.
struct PasskeyError: Error, Equatable {
    let reason: String

    static func invalid(_ reason: String) -> PasskeyError { PasskeyError(reason: reason) }
}
