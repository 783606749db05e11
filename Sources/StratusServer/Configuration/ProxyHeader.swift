/// The header a trusted reverse proxy writes the client's address in (`serve --proxy-header`).
///
/// Only the named header is read: a proxy that writes `Forwarded` passes on whatever
/// `X-Forwarded-For` the client sent, so reading both would let the client choose its address.
public enum ProxyHeader: String, Sendable, CaseIterable {
    /// RFC 7239 `Forwarded: for=…`, as nginx's `$proxy_add_forwarded` or HAProxy's `option forwarded` write it.
    case forwarded
    /// `X-Forwarded-For`, as nginx's `$proxy_add_x_forwarded_for` writes it (the default).
    case xForwardedFor = "x-forwarded-for"
    /// `X-Real-IP`: one address, set (not appended) by the proxy next to the server.
    case xRealIP = "x-real-ip"
}
