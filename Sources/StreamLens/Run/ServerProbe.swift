import Foundation
import StreamLensCore

/// Why a network input's server could not be reached, found by connecting to it: GStreamer's HTTP source says only
/// "Internal data stream error." when nothing listens at the address (libsoup's "Connection refused" goes to its
/// debug log), and RTSP's source "Could not open resource for reading and writing.". Asked only after the input
/// failed to open, so a working input never waits for it; the lookup waits as long as the system's resolver allows,
/// each connect at most `timeout`.
enum ServerProbe {
    /// The TCP ports of the schemes whose sources connect over TCP.
    private static let defaultPorts = ["http": 80, "https": 443, "rtsp": 554, "rtsps": 322, "rtmp": 1935, "rtmps": 443]

    /// One line saying why `uri`'s server cannot be reached (`nothing accepts connections at 127.0.0.1:9`, `no host
    /// named 'camera.local'`, `no answer from 10.0.0.9:554 within 2 s`); nil when it can be, or the scheme is not one
    /// of a TCP server.
    static func unreachableReason(for uri: String, timeout: Duration = .seconds(2)) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            let defaultPort = defaultPorts[scheme], let host = components.host, !host.isEmpty
        else { return nil }
        let port = components.port ?? defaultPort
        let place = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var addresses: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &addresses)
        guard lookup == 0, let first = addresses else {
            return lookup == EAI_NONAME ? "no host named '\(host)'" : nil
        }
        defer { freeaddrinfo(first) }
        var refused = false
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let current = address {
            switch connect(to: current.pointee, within: timeout) {
            case .connected: return nil
            case .refused: refused = true
            case .noAnswer, .failed: break
            }
            address = current.pointee.ai_next
        }
        return refused
            ? "nothing accepts connections at \(place)"
            : "no answer from \(place) within \(timeout.secondsText) s"
    }

    private enum Attempt { case connected, refused, noAnswer, failed }

    /// A non-blocking connect to one address, waited for at most `timeout`.
    private static func connect(to address: addrinfo, within timeout: Duration) -> Attempt {
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { return .failed }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return .connected }
        if errno == ECONNREFUSED { return .refused }
        guard errno == EINPROGRESS else { return .failed }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&waiting, 1, Int32(timeout.milliseconds)) == 1 else { return .noAnswer }
        var problem: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &problem, &length) == 0 else { return .failed }
        switch problem {
        case 0: return .connected
        case ECONNREFUSED: return .refused
        case ETIMEDOUT, EHOSTUNREACH, ENETUNREACH: return .noAnswer
        default: return .failed
        }
    }
}
