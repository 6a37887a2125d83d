// wirepeer: a live peer for network fuzzing (`make netfuzz`, docs/transport.md).
//
// Listens on loopback over TCP, TLS and UDP with WireTransport, decodes every request (a frame on
// a stream, a datagram on UDP) through the facades as one message type, found by full name in the
// schema's generated catalog, and answers with the re-encoding or the decode error (the layout is
// in NetFuzzProtocol). Built with AddressSanitizer by scripts/netfuzz.sh, so a bad access kills it
// with a report on stderr; the driver sees the dead or silent peer and saves the inputs.
//
//   wirepeer --cert CERT.pem --key KEY.pem [--type rtm.DataPacket] [--host 127.0.0.1]
//            [--tcp-port 0] [--tls-port 0] [--udp-port 0]
//
// Prints one line `wirepeer ready type=T tcp=P tls=P udp=P` on stdout once all three listen;
// SIGTERM or SIGINT stops it with exit status 0 (so LeakSanitizer runs at exit).

import BundledProtoCatalog
import Dispatch
import FacadeProof
import Foundation
import Glibc
import NetFuzzProtocol
import WireTransport

struct Options {
    var messageType = PeerProtocol.defaultMessageType
    var host = "127.0.0.1"
    var certificate: String?
    var key: String?
    var ports: [String: UInt16] = ["tcp": 0, "tls": 0, "udp": 0]

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(flag) needs a value") }
            switch flag {
            case "--type": options.messageType = value
            case "--host": options.host = value
            case "--cert": options.certificate = value
            case "--key": options.key = value
            case "--tcp-port", "--tls-port", "--udp-port":
                guard let port = UInt16(value) else { fail("\(flag): not a port: \(value)") }
                options.ports[String(flag.dropFirst(2).prefix(3))] = port
            default: fail("unknown option \(flag)")
            }
        }
        return options
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("wirepeer: \(message)\n".utf8))
    exit(2)
}

let stopSignals = blockStopSignals()
let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
guard let messageType = facadeCatalog.messageType(named: options.messageType) else {
    fail("no message type \(options.messageType) in the catalog; known: \(facadeCatalog.messageTypes.map(\.fullName).joined(separator: ", "))")
}
guard let certificate = options.certificate, let key = options.key else { fail("--cert and --key are required (TLS listener)") }

let server = PeerServer(messageType: messageType)
let queue = DispatchQueue(label: "wirepeer")
let tls = TLSOptions(certificateFile: certificate, privateKeyFile: key)
var listeners: [(name: String, listener: Listener)] = []
do {
    listeners = [
        ("tcp", try Listener(using: .tcp, host: options.host, port: options.ports["tcp"]!)),
        ("tls", try Listener(using: .tls(tls), host: options.host, port: options.ports["tls"]!)),
        ("udp", try Listener(using: .udp, host: options.host, port: options.ports["udp"]!)),
    ]
} catch {
    fail("cannot create listeners: \(error)")
}

let ready = DispatchSemaphore(value: 0)
for (name, listener) in listeners {
    let datagram = name == "udp"
    listener.newConnectionHandler = { connection in
        connection.stateUpdateHandler = { state in if case .failed = state { connection.cancel() } }
        connection.start(queue: queue)
        if datagram { server.serveDatagrams(connection) } else { server.serveStream(connection) }
    }
    listener.stateUpdateHandler = { state in
        switch state {
        case .ready: ready.signal()
        case .failed(let error): fail("\(name) listener failed: \(error)")
        default: break
        }
    }
    listener.start(queue: queue)
}
for (name, _) in listeners where ready.wait(timeout: .now() + 10) == .timedOut { fail("\(name) listener not ready within 10 s") }

let ports = listeners.map { "\($0.name)=\($0.listener.port ?? 0)" }.joined(separator: " ")
FileHandle.standardOutput.write(Data("wirepeer ready type=\(options.messageType) \(ports)\n".utf8))

let listenerSet = ListenerSet(listeners.map(\.listener))
listeners = []  // owned by the ListenerSet from here on
waitForStopSignal(stopSignals, then: listenerSet)
