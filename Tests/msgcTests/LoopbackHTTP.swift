import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 client over raw loopback sockets, for the server's end-to-end tests: it
/// sends exactly the bytes a test gives (a body in pieces, a trickle, too many bytes), and
/// every wait is bounded by a deadline, so a server that misbehaves fails a test instead of
/// hanging it.
enum LoopbackHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// A connected socket to 127.0.0.1:`port`, with send and receive timeouts of `timeout`.
    static func connect(port: Int, timeout: Double = 10) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Sends all of `bytes`; false when the peer closed or the send timed out.
    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    static func request(_ method: String, _ path: String, body: [UInt8] = [], headers: [String: String] = [:]) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if method == "POST" || !body.isEmpty { head += "Content-Length: \(body.count)\r\nContent-Type: application/json\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// Reads one response from `fd` (a `Content-Length` body, or to the end of the stream),
    /// or nil when none arrived whole before the socket's receive timeout.
    static func readResponse(_ fd: Int32) -> Response? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            if let response = parse(buffer, ended: false) { return response }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return parse(buffer, ended: true) }
            buffer += chunk[0..<count]
        }
    }

    /// One request on a new connection, closed after.
    static func exchange(port: Int, _ request: [UInt8], timeout: Double = 10) -> Response? {
        guard let fd = connect(port: port, timeout: timeout) else { return nil }
        defer { close(fd) }
        guard send(fd, request) else { return readResponse(fd) }
        return readResponse(fd)
    }

    /// Whether the server closed `fd` (a read returns 0 or an error) within the receive timeout.
    static func isClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        while true {
            let count = recv(fd, &byte, 1, 0)
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return false }
            return count <= 0
        }
    }

    /// Sends every request on its own connection at once (all connected and sent before any
    /// answer is read), then reads every answer, all within `deadline` seconds: the burst of
    /// Apple's sandbox performance test. A request that got no whole answer is nil.
    static func burst(port: Int, _ requests: [[UInt8]], deadline: Double = 60) -> [Response?] {
        let end = Date().addingTimeInterval(deadline)
        var sockets: [Int32?] = requests.map { _ in connect(port: port, timeout: 10) }
        for (index, request) in requests.enumerated() {
            if let fd = sockets[index], !send(fd, request) {
                close(fd)
                sockets[index] = nil
            }
        }
        var buffers = [[UInt8]](repeating: [], count: requests.count)
        var responses = [Response?](repeating: nil, count: requests.count)
        var open = Set(sockets.indices.filter { sockets[$0] != nil })
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while !open.isEmpty && Date() < end {
            let waiting = open.sorted()
            var polled = waiting.map { pollfd(fd: sockets[$0]!, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), 200)
            guard ready > 0 else { continue }
            for (position, index) in waiting.enumerated() where polled[position].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { recv(sockets[index]!, $0.baseAddress, $0.count, 0) }
                if count > 0 { buffers[index] += chunk[0..<count] }
                if let response = parse(buffers[index], ended: count <= 0) {
                    responses[index] = response
                }
                if responses[index] != nil || count <= 0 {
                    open.remove(index)
                }
            }
        }
        for fd in sockets.compactMap({ $0 }) { close(fd) }
        return responses
    }

    /// A whole response in `bytes`, or nil when more is needed (`ended`: no more will come).
    static func parse(_ bytes: [UInt8], ended: Bool) -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let split = bytes.firstRange(of: separator) else { return nil }
        let head = String(decoding: bytes[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Array(bytes[split.upperBound...])
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            return body.count >= length ? Response(status: status, headers: headers, body: Array(body.prefix(length))) : nil
        }
        return ended ? Response(status: status, headers: headers, body: body) : nil
    }
}
