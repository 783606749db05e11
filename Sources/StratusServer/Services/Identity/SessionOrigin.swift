import Hummingbird

/// Where a session is opened from, as the account centre shows it: the client's address
/// (``StratusRequestContext/clientAddress``) and what the device says it is (its `User-Agent`).
package struct SessionOrigin: Sendable {
    package var client: String
    package var device: String

    /// The longest device description kept.
    static let maxDeviceCharacters = 200

    package init(client: String, device: String = "") {
        self.client = client
        // Spaces kept; line breaks, tabs and other control characters left out.
        self.device = String(String.UnicodeScalarView(device.unicodeScalars.filter { $0 == " " || !($0.properties.isWhitespace || $0.properties.generalCategory == .control) }
            .prefix(Self.maxDeviceCharacters)))
    }

    /// The origin of a request.
    init(_ request: Request, _ context: StratusRequestContext) {
        self.init(client: context.clientAddress, device: request.headers[.userAgent] ?? "")
    }
}
