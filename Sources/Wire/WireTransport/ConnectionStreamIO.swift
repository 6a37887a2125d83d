import CWireTransport
import Dispatch
import Foundation
import Glibc

/// Moving bytes over TCP and TLS: the service loop, sends, reads and read-ahead, delivery.
/// Everything here runs on the connection's queue.
extension Connection {
    // MARK: I/O

    /// Every source event and every new request lands here: moves bytes both ways as far as the
    /// socket allows, then arms exactly the sources still needed.
    func service() {
        switch stage {
        case .preparing(.resolvingService), .preparing(.connecting): return  // no socket yet; the race owns them until one connects
        case .preparing(.handshaking): return stepHandshake()
        case .setup, .waiting, .failed, .cancelled: return
        case .ready: break
        }
        let w = pumpWrites()
        guard stage == .ready else { return }
        let r = pumpReads()
        guard stage == .ready, let channel else { return }
        channel.armRead(w.read || r.read)
        channel.armWrite(w.write || r.write)
    }

    func enqueueSend(_ bytes: [UInt8], _ completion: (@Sendable (WireError?) -> Void)?, isFinal: Bool = false) {
        guard !state.isTerminal else {
            if let completion { deliverSend(completion, terminalError) }
            return
        }
        guard !finalMessageQueued else {
            if let completion { deliverSend(completion, .invalidArgument("send after the final message")) }
            return
        }
        if case .udpChild(let table, let peer) = origin {
            // The listener's socket sends for its per-peer connections.
            let userQueue = self.userQueue ?? .global()
            table.send(bytes, to: peer) { error in if let completion { userQueue.async { completion(error) } } }
            return
        }
        if isFinal && !parameters.isDatagram { finalMessageQueued = true }
        sends.append(PendingSend(bytes: bytes, offset: 0, completion: completion, isFinal: isFinal && !parameters.isDatagram))
        if stage == .ready && batchDepth == 0 { service() }
    }

    typealias Needs = (read: Bool, write: Bool)

    func fatal(_ error: WireError) -> Needs {
        apply(.fatalFailure(error))
        return (false, false)
    }

    func pumpWrites() -> Needs {
        guard batchDepth == 0, !sends.isEmpty, let channel else { return (false, false) }
        if parameters.isDatagram { return flushDatagrams(channel) }
        while stage == .ready, var head = sends.first {
            if head.offset >= head.bytes.count {  // written whole (or empty): complete it
                sends.removeFirst()
                if head.isFinal, let error = closeWriteSide(channel) { return fatal(error) }
                if let c = head.completion { deliverSend(c, nil) }
                continue
            }
            let step: TLSStep
            if let tls = channel.tls {
                step = head.bytes.withUnsafeBytes { tls.write(UnsafeRawBufferPointer(rebasing: $0[head.offset...])) }
            } else {
                do {
                    let n = try channel.socket.withDescriptor { fd throws(SystemError) in try Sys.send(fd, head.bytes, from: head.offset) }
                    step = .done(n)
                } catch where error.wouldBlock {
                    step = .wantWrite
                } catch {
                    step = .failed(error.wireError)
                }
            }
            switch step {
            case .done(let n):
                head.offset += n
                sends[0] = head  // completed at the top of the loop once whole
            case .wantWrite: return (false, true)
            case .wantRead: return (true, false)
            case .closed: return fatal(.tls(reason: "write: the peer closed the TLS session"))
            case .failed(let e): return fatal(e)
            }
        }
        return (false, false)
    }

    /// After the final message: TLS sends close_notify, then TCP's write side is shut, so the peer
    /// reads end of stream; this side's read side stays open. nil when done.
    func closeWriteSide(_ channel: IOChannel) -> WireError? {
        channel.tls?.shutdown()
        do {
            try channel.socket.withDescriptor { fd throws(SystemError) in try Sys.shutdownWrite(fd) }
            return nil
        } catch {
            return error.wireError
        }
    }

    func pumpReads() -> Needs {
        while stage == .ready {
            deliverReady()
            guard !endOfStream, let channel else { return (false, false) }
            if case .udpChild = origin { return (false, false) }  // fed by the listener
            // A stream keeps reading ahead while idle (so a reset or close is seen when it happens,
            // not at the next receive), up to `readAhead` buffered bytes; UDP reads only for a receive.
            guard !receives.isEmpty || (!parameters.isDatagram && inbound.count < Self.readAhead) else { return (false, false) }
            if parameters.isDatagram {
                switch readDatagrams(channel) {
                case .some(let needs): return needs
                case .none: continue
                }
            }
            let chunk = readBuffer.slot(0)
            let step: TLSStep
            if let tls = channel.tls {
                step = tls.read(into: chunk)
            } else {
                do {
                    let n = try channel.socket.withDescriptor { fd throws(SystemError) in try Sys.recv(fd, into: chunk) }
                    step = n == 0 ? .closed : .done(n)
                } catch where error.wouldBlock {
                    step = .wantRead
                } catch {
                    step = .failed(error.wireError)
                }
            }
            switch step {
            case .done(let n): inbound.append(UnsafeRawBufferPointer(rebasing: chunk[..<n]))
            case .closed: endOfStream = true
            case .wantRead: return (true, false)
            case .wantWrite: return (false, true)
            case .failed(let e): return fatal(e)
            }
        }
        return (false, false)
    }

    /// Hands buffered bytes or datagrams to the receives they satisfy, in order.
    func deliverReady() {
        while let head = receives.first {
            if parameters.isDatagram {
                guard !datagrams.isEmpty else { return }
                let datagram = datagrams.removeFirst()
                receives.removeFirst()
                if datagram.count > head.maximum {
                    deliver(head.completion, nil, false, .datagramTruncated(length: datagram.count))
                } else {
                    deliver(head.completion, Data(datagram), true, nil)
                }
                continue
            }
            let wanted = max(head.minimum, 1)
            if inbound.count >= wanted || (endOfStream && !inbound.isEmpty) {
                let bytes = inbound.take(min(inbound.count, head.maximum))
                receives.removeFirst()
                deliver(head.completion, Data(bytes), endOfStream && inbound.isEmpty, nil)
            } else if endOfStream {
                receives.removeFirst()
                deliver(head.completion, nil, true, nil)
            } else {
                return
            }
        }
    }
}
