import Foundation
import ProofSupport

/// Why a protoc-backed check could not run (as opposed to finding a disagreement).
public enum OracleCheckError: Error, Sendable, CustomStringConvertible {
    /// No `protoc` executable at the given path or on PATH.
    case protocNotFound
    /// protoc could not be started, or a temporary file could not be written or read.
    case io(String)
    /// protoc failed while building the descriptor set; carries its stderr.
    case descriptorSetFailed(String)
    /// The descriptor set protoc wrote could not be loaded.
    case schemaUnreadable(String)
    /// The proto directory holds no `.proto` files.
    case noProtoFiles(String)

    public var description: String {
        switch self {
        case .protocNotFound: return "protoc not found (install protobuf-compiler: make setup)"
        case let .io(detail): return "I/O error: \(detail)"
        case let .descriptorSetFailed(stderr): return "protoc could not build the descriptor set:\n\(stderr)"
        case let .schemaUnreadable(detail): return "cannot load the descriptor set: \(detail)"
        case let .noProtoFiles(dir): return "no .proto files under \(dir)"
        }
    }
}

/// What one protoc run produced.
struct ProtocResult: Sendable {
    let status: Int32
    let stdout: [UInt8]
    let stderr: String
}

/// Runs protoc as a child process (`ChildProcess`: files instead of pipes, waiting off the
/// cooperative thread pool, so concurrent runs neither deadlock nor starve it).
struct Protoc: Sendable {
    /// Absolute path of the protoc executable.
    let executable: String
    /// Directory for the temporary input and output files of each run.
    let scratch: URL

    /// Finds protoc at `path`, or on PATH when nil.
    init(path: String?, scratch: URL) throws(OracleCheckError) {
        let found = path.map { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil } ?? ChildProcess.executableOnPath("protoc")
        guard let found else { throw .protocNotFound }
        executable = found
        self.scratch = scratch
    }

    /// Runs protoc with `arguments`, feeding `input` on stdin.
    func run(_ arguments: [String], input: [UInt8] = []) async throws(OracleCheckError) -> ProtocResult {
        do {
            let result = try await ChildProcess.run(executable, arguments, input: input)
            return ProtocResult(status: result.status, stdout: result.stdout, stderr: result.stderrText)
        } catch {
            throw .io(error.description)
        }
    }
}
