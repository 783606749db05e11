import Foundation

/// A plain TCP socket to a port on 127.0.0.1, for tests that speak below HTTP clients.
enum LoopbackSocket {
    /// A connected socket, or nil when nothing listens on `port` (close it when done); with
    /// `receiveBuffer`, its receive buffer is that small.
    static func connect(port: Int, receiveBuffer: Int32? = nil) -> Int32? {
        #if canImport(Glibc)
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Foundation.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        if var receiveBuffer {
            _ = setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            return nil
        }
        return socket
    }
}
