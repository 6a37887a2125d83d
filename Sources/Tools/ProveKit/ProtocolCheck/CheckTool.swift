// The external tools the protocol checks run (cc, nm, git): found on PATH and run through
// ProcessSupport's ChildProcess, with a failure turned into one typed line.

import ProcessSupport

enum CheckTool {
    /// `name` itself when it holds a `/`, else the first executable of that name on PATH.
    static func locate(_ name: String) throws(ProtocolCheckError) -> String {
        if name.contains("/") { return name }
        guard let path = ChildProcess.executableOnPath(name) else {
            throw .missing(path: name, remedy: "install it or put it on PATH")
        }
        return path
    }

    /// Runs `executable` (blocking) and returns its standard output; fails when it cannot start or
    /// exits non-zero, naming the tool and the first line it printed.
    static func output(_ executable: String, _ arguments: [String], in directory: String? = nil) throws(ProtocolCheckError) -> String {
        let name = executable.split(separator: "/").last.map(String.init) ?? executable
        let result: ChildProcess.Result
        do { result = try ChildProcess.run(executable, arguments, in: directory) } catch {
            throw .tool(command: name, status: -1, output: error.description)
        }
        guard result.status == 0 else {
            let printed = result.stderrText + String(decoding: result.stdout, as: UTF8.self)
            let first = printed.split(separator: "\n").first.map(String.init) ?? ""
            throw .tool(command: name, status: result.status, output: first)
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
