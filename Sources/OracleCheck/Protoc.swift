import Foundation

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

/// Runs protoc as a child process. Input and output go through temporary files (never pipes), so
/// large messages cannot deadlock on a full pipe buffer; waiting is asynchronous (termination
/// handler), so concurrent runs do not block the cooperative thread pool.
struct Protoc: Sendable {
    /// Absolute path of the protoc executable.
    let executable: String
    /// Directory for the temporary input and output files of each run.
    let scratch: URL

    /// Finds protoc at `path`, or on PATH when nil.
    init(path: String?, scratch: URL) throws(OracleCheckError) {
        let candidates = path.map { [$0] }
            ?? (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map { "\($0)/protoc" }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw .protocNotFound
        }
        executable = found
        self.scratch = scratch
    }

    /// Runs protoc with `arguments`, feeding `input` on stdin.
    func run(_ arguments: [String], input: [UInt8] = []) async throws(OracleCheckError) -> ProtocResult {
        let id = UUID().uuidString
        let inURL = scratch.appendingPathComponent("\(id).in")
        let outURL = scratch.appendingPathComponent("\(id).out")
        let errURL = scratch.appendingPathComponent("\(id).err")
        defer {
            for url in [inURL, outURL, errURL] { try? FileManager.default.removeItem(at: url) }
        }
        do {
            try Data(input).write(to: inURL)
            guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
                  FileManager.default.createFile(atPath: errURL.path, contents: nil) else {
                throw OracleCheckError.io("cannot create files in \(scratch.path)")
            }
            let stdin = try FileHandle(forReadingFrom: inURL)
            let stdout = try FileHandle(forWritingTo: outURL)
            let stderr = try FileHandle(forWritingTo: errURL)
            defer { try? stdin.close(); try? stdout.close(); try? stderr.close() }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = stderr
            let status: Int32 = try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: error)
                }
            }
            let out = try Data(contentsOf: outURL)
            let err = try Data(contentsOf: errURL)
            return ProtocResult(status: status, stdout: [UInt8](out), stderr: String(decoding: err, as: UTF8.self))
        } catch let error as OracleCheckError {
            throw error
        } catch {
            throw .io("running \(executable): \(error)")
        }
    }
}
