// The names of the previous release, kept for one release so that apps move at their own pace.

#if canImport(Darwin)
/// On Apple platforms the client no longer links SwiftNIO, so the AsyncHTTPClient transport is
/// gone there; ``URLSessionTransport`` (already the default) carries what it did.
@available(*, deprecated, renamed: "URLSessionTransport")
public typealias HTTPTransport = URLSessionTransport
#endif
