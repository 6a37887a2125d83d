// How the two suite runs of `wireproof conformance` become one verdict.

/// What happened to the second run, against the SwiftProtobuf host.
enum PeerRun: Equatable, Sendable {
    /// `--facades-only`: not run, on purpose.
    case notAsked
    /// The peer cannot be built on this machine (`SwiftProtobufPeerError.unavailable`): not run,
    /// and the run does not fail for it.
    case unavailable(String)
    /// The peer should build here and does not: the run fails.
    case doesNotBuild(String)
    /// The suite ran; the runner's exit status.
    case ran(Int32)
}

/// Both runs' results. The command fails when either run fails; a peer that cannot be built here
/// is skipped with one line saying why.
struct ConformanceOutcome: Equatable, Sendable {
    /// The runner's exit status against the facades' host.
    let facades: Int32
    let peer: PeerRun

    var passed: Bool {
        guard facades == 0 else { return false }
        switch peer {
        case .notAsked, .unavailable: return true
        case .doesNotBuild: return false
        case .ran(let status): return status == 0
        }
    }

    /// The line that explains a peer run that did not happen or did not build; nil when it ran.
    var peerLine: String? {
        switch peer {
        case .notAsked: return "swiftprotobuf: skipped: --facades-only"
        case .unavailable(let why): return "swiftprotobuf: skipped: \(why)"
        case .doesNotBuild(let why): return "the SwiftProtobuf host does not build: \(why)"
        case .ran: return nil
        }
    }
}
