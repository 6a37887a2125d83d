import CWireTransport
import Dispatch
import Foundation
import Glibc

/// Moving datagrams over UDP: sendmmsg batches, recvmmsg, a UDP listener's per-peer feed.
/// Everything here runs on the connection's queue.
extension Connection {
    /// UDP: one `send` for a single datagram, one `sendmmsg` for several.
    func flushDatagrams(_ channel: IOChannel) -> Needs {
        while !sends.isEmpty {
            let count = min(sends.count, Int(CWIRE_MAX_BATCH))
            let result: Result<Int, SystemError> = Result { () throws(SystemError) -> Int in
                try channel.socket.withDescriptor { fd throws(SystemError) -> Int in
                    if count == 1 {
                        _ = try Sys.send(fd, sends[0].bytes)
                        return 1
                    }
                    return try Sys.sendmmsg(fd, sends[0 ..< count].map(\.bytes)[...])
                }
            }
            switch result {
            case .success(let sent):
                // One hop to the user's queue for the whole batch (in order), not one per datagram.
                let completions = sends.prefix(sent).compactMap(\.completion)
                sends.removeFirst(sent)
                if !completions.isEmpty { (userQueue ?? .global()).async { for c in completions { c(nil) } } }
            case .failure(let error) where error.wouldBlock:
                return (false, true)
            case .failure(let error):
                // A datagram error (e.g. ECONNREFUSED from an earlier ICMP) belongs to the first one.
                let head = sends.removeFirst()
                if let c = head.completion { deliverSend(c, error.wireError) }
            }
        }
        return (false, false)
    }

    /// Reads up to `datagramBatch` datagrams with one recvmmsg. nil: got some, keep going.
    func readDatagrams(_ channel: IOChannel) -> Needs? {
        do {
            let got = try channel.socket.withDescriptor { fd throws(SystemError) in
                try Sys.recvmmsg(fd, into: datagramBuffer, size: min(Self.readChunk, (receives.first?.maximum ?? 0) + 1))
            }
            // A datagram filling the buffer is longer than the receive's maximum (the +1 above).
            for d in got { datagrams.append(d.bytes) }
            return nil
        } catch where error.wouldBlock {
            return (true, false)
        } catch {
            // ICMP errors (ECONNREFUSED) are per datagram on UDP: report to one receive, carry on.
            let head = receives.removeFirst()
            deliver(head.completion, nil, false, error.wireError)
            return nil
        }
    }

    /// A UDP listener hands this per-peer connection a datagram (on the connection's queue).
    func enqueueDatagram(_ datagram: [UInt8]) {
        queue.async {
            guard self.stage == .ready || self.stage == .setup else { return }
            if self.datagrams.count < 1024 { self.datagrams.append(datagram) }  // beyond: dropped, as UDP may
            if self.stage == .ready { self.deliverReady() }
        }
    }
}
