/// Why a passkey ceremony's credential was refused; the service answers it as
/// `AUTHENTICATION_FAILED` for a sign-in or a proof, `BAD_REQUEST` for a registration.
enum PasskeyError: Error, Equatable {
    case invalid(String)

    var reason: String {
        switch self {
        case .invalid(let reason): reason
        }
    }
}
