import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import StratusServer

/// ``RequestBodyDeadline`` counts only the time the server is waiting for a body, on an embedded
/// channel whose clock and reads the test drives.
@Suite struct RequestBodyDeadlineTests {
    private let loop = EmbeddedEventLoop()
    private let channel: EmbeddedChannel

    init() {
        channel = EmbeddedChannel(handler: RequestBodyDeadline(deadline: .seconds(10)), loop: loop)
    }

    private let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/database/1/c/development/public/records/query",
                                                        headerFields: [.contentLength: "4"]))

    /// Whether the deadline has passed (the channel caught ``RequestBodyDeadline/Expired``).
    private func expired() throws -> Bool {
        do {
            try channel.throwIfErrorCaught()
            return false
        } catch is RequestBodyDeadline.Expired {
            return true
        }
    }

    /// A client that sends its body slowly while the server asks for it fails at the deadline,
    /// counted across the reads.
    @Test func aBodyThatDribblesInFailsAtTheDeadline() throws {
        try channel.writeInbound(head)            // read and read complete: the clock stops
        channel.read()                            // the server asks for more
        loop.advanceTime(by: .seconds(6))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "{")))
        channel.read()
        loop.advanceTime(by: .seconds(3))
        #expect(try !expired())
        loop.advanceTime(by: .seconds(1))
        #expect(try expired())
    }

    /// While the server does not ask for more (its handler is behind), the clock stands still: a
    /// body held back by the server past the deadline does not fail, and the clock runs on from
    /// where it stopped once the server asks again.
    @Test func timeTheServerHoldsBackDoesNotCount() throws {
        try channel.writeInbound(head)
        loop.advanceTime(by: .seconds(60))
        #expect(try !expired())
        channel.read()
        loop.advanceTime(by: .seconds(9))
        #expect(try !expired())
        loop.advanceTime(by: .seconds(1))
        #expect(try expired())
    }

    /// The end of the body stops the clock for good.
    @Test func theEndOfTheBodyDisarmsTheDeadline() throws {
        try channel.writeInbound(head)
        channel.read()
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.read()
        loop.advanceTime(by: .seconds(60))
        #expect(try !expired())
    }

    /// A request without a body is not bounded.
    @Test func aRequestWithoutABodyIsNotBounded() throws {
        try channel.writeInbound(HTTPRequestPart.head(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/healthz")))
        channel.read()
        loop.advanceTime(by: .seconds(60))
        #expect(try !expired())
    }
}
