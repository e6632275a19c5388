import CTLS
import HummingbirdCore
import Logging
import NIOCore

/// A child channel whose pipeline starts with TLS, then the HTTP channel's own handlers: the
/// idle timeout and everything after it see only decrypted bytes, so a client that stalls its
/// handshake is closed like one that stalls its request head.
struct TLSChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let context: TLSContext

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let context = context
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(TLSServerHandler(context: context))
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// One connection's TLS, server side, over OpenSSL with memory BIOs: bytes from the socket go
/// into OpenSSL's read BIO, what OpenSSL writes (handshake, records, alerts) is taken from its
/// write BIO and sent. Everything runs on the connection's event loop.
final class TLSServerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    struct SetupFailure: Error, CustomStringConvertible {
        var description: String
    }

    private enum State {
        case handshaking
        case open
        /// Our close_notify is sent, or the connection failed: nothing more is read or written.
        case closed
    }

    /// Keeps the context alive as long as the connection made from it.
    private let context: TLSContext
    private let connection: OpaquePointer
    private var state = State.handshaking
    /// What the HTTP side wrote before the handshake ended (nothing, for a server that answers
    /// requests; kept so that a write is never lost or sent in clear).
    private var early: [(ByteBuffer, EventLoopPromise<Void>?)] = []

    /// Plaintext is read from OpenSSL in pieces of at most this size (one TLS record).
    private static let readSize = 16 << 10

    init(context: TLSContext) throws {
        self.context = context
        ERR_clear_error()
        guard let connection = SSL_new(context.pointer) else {
            throw SetupFailure(description: "OpenSSL cannot start a TLS connection: \(TLSContext.openSSLError())")
        }
        guard let input = BIO_new(BIO_s_mem()) else {
            SSL_free(connection)
            throw SetupFailure(description: "OpenSSL cannot make a memory BIO: \(TLSContext.openSSLError())")
        }
        guard let output = BIO_new(BIO_s_mem()) else {
            BIO_free(input)
            SSL_free(connection)
            throw SetupFailure(description: "OpenSSL cannot make a memory BIO: \(TLSContext.openSSLError())")
        }
        // The connection owns both BIOs from here and frees them with itself.
        SSL_set_bio(connection, input, output)
        SSL_set_accept_state(connection)
        self.connection = connection
    }

    deinit { SSL_free(connection) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state != .closed else { return }
        let bytes = unwrapInboundIn(data)
        let written = bytes.withUnsafeReadableBytes { raw -> Int32 in
            raw.isEmpty ? 0 : BIO_write(SSL_get_rbio(connection), raw.baseAddress, Int32(raw.count))
        }
        guard written == bytes.readableBytes else { return fail(context) }
        if state == .handshaking {
            ERR_clear_error()
            let result = SSL_do_handshake(connection)
            if result != 1 {
                let error = SSL_get_error(connection, result)
                // The handshake's next flight, or the alert that explains a failure.
                sendOutput(context, promise: nil, flush: true)
                if error != SSL_ERROR_WANT_READ { fail(context) }
                return
            }
            state = .open
            sendOutput(context, promise: nil, flush: true)
            let waiting = early
            early = []
            for (buffer, promise) in waiting { write(context: context, data: wrapOutboundOut(buffer), promise: promise) }
            if !waiting.isEmpty { context.flush() }
        }
        readPlaintext(context)
    }

    /// Hands the HTTP side every whole record OpenSSL holds.
    private func readPlaintext(_ context: ChannelHandlerContext) {
        while state == .open {
            var plaintext = context.channel.allocator.buffer(capacity: Self.readSize)
            var result: Int32 = 0
            ERR_clear_error()
            plaintext.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.readSize) { raw in
                result = SSL_read(connection, raw.baseAddress, Int32(raw.count))
                return result > 0 ? Int(result) : 0
            }
            if result > 0 {
                context.fireChannelRead(wrapInboundOut(plaintext))
                continue
            }
            let error = SSL_get_error(connection, result)
            // A TLS 1.3 ticket or an alert may wait to be sent either way.
            sendOutput(context, promise: nil, flush: true)
            switch error {
            case SSL_ERROR_WANT_READ:
                return
            case SSL_ERROR_ZERO_RETURN:
                // The client's close_notify: it sends nothing more.
                state = .closed
                context.close(promise: nil)
                return
            default:
                return fail(context)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let plaintext = unwrapOutboundIn(data)
        switch state {
        case .handshaking:
            early.append((plaintext, promise))
        case .closed:
            promise?.fail(ChannelError.ioOnClosedChannel)
        case .open:
            guard plaintext.readableBytes > 0 else {
                context.write(wrapOutboundOut(plaintext), promise: promise)
                return
            }
            ERR_clear_error()
            // Without SSL_MODE_ENABLE_PARTIAL_WRITE, and into a memory BIO that grows, a write is
            // whole or fails.
            let result = plaintext.withUnsafeReadableBytes { raw in
                SSL_write(connection, raw.baseAddress, Int32(raw.count))
            }
            guard result == plaintext.readableBytes else {
                promise?.fail(ChannelError.ioOnClosedChannel)
                return fail(context)
            }
            sendOutput(context, promise: promise, flush: false)
        }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode != .input, state == .open {
            ERR_clear_error()
            // Our close_notify; the client's is not waited for, as HTTP allows.
            _ = SSL_shutdown(connection)
            sendOutput(context, promise: nil, flush: true)
        }
        if mode != .input {
            failEarly()
            state = .closed
        }
        context.close(mode: mode, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failEarly()
        state = .closed
        context.fireChannelInactive()
    }

    /// What OpenSSL has written, sent on as one buffer.
    private func sendOutput(_ context: ChannelHandlerContext, promise: EventLoopPromise<Void>?, flush: Bool) {
        let output = SSL_get_wbio(connection)
        let pending = Int(BIO_ctrl_pending(output))
        if pending > 0 {
            var ciphertext = context.channel.allocator.buffer(capacity: pending)
            ciphertext.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { raw in
                Int(max(0, BIO_read(output, raw.baseAddress, Int32(pending))))
            }
            context.write(wrapOutboundOut(ciphertext), promise: promise)
        } else {
            promise?.succeed()
        }
        if flush { context.flush() }
    }

    /// A handshake or record that cannot be used: the alert OpenSSL wrote, if any, then the
    /// connection closed.
    private func fail(_ context: ChannelHandlerContext) {
        ERR_clear_error()
        guard state != .closed else { return }
        state = .closed
        failEarly()
        context.close(promise: nil)
    }

    private func failEarly() {
        let waiting = early
        early = []
        for (_, promise) in waiting { promise?.fail(ChannelError.ioOnClosedChannel) }
    }
}
