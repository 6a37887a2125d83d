// What a child starts with besides its streams: the program file, the environment and the working
// directory, set on the posix_spawn call itself. No helper process (`env`) execs the program on
// the child's behalf, so a failure of the program's own exec (ETXTBSY, a missing file) is the
// spawn's error, which the caller sees and can retry, not a helper's exit status.

import Foundation
import Glibc

extension ChildProcess {
    /// The file posix_spawn runs for `executable`: a path (anything with a "/") as given, relative
    /// ones resolved in the child's working directory; a bare name looked up on the PATH the child
    /// gets (`environment`'s, else this process's), as a shell or `env` would.
    static func programPath(_ executable: String, environment: [String: String]) throws(LaunchError) -> String {
        if executable.contains("/") { return executable }
        let path = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"]
        guard let found = executableOnPath(executable, path: path) else {
            throw LaunchError(description: "cannot start \(executable): not found on PATH (\(path ?? "unset"))")
        }
        return found
    }

    /// This process's environment with each of `added` set over it, as `NAME=value` strings: the
    /// inherited entries in their order, those `added` replaces left out, then `added` by name.
    static func environmentStrings(adding added: [String: String]) -> [String] {
        var inherited: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            let name = String(text.prefix { $0 != "=" })
            if added[name] == nil { inherited.append(text) }
            entry += 1
        }
        return inherited + added.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// glibc's posix_spawn_file_actions_addchdir_np (2.29 and later), which Swift's Glibc module
    /// does not import.
    private typealias AddChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

    /// Adds "change to `directory`" to `actions`, done in the child before its exec.
    static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) throws(LaunchError) {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
            throw LaunchError(description: "cannot start a child in \(directory): this C library has no posix_spawn_file_actions_addchdir_np")
        }
        // SAFETY: the symbol is glibc's posix_spawn_file_actions_addchdir_np, whose C type is
        // int (posix_spawn_file_actions_t *, const char *), the type it is cast to; it copies the
        // path, so the temporary C string need only live for the call.
        let add = unsafeBitCast(symbol, to: AddChangeDirectory.self)
        let error = add(&actions, directory)
        guard error == 0 else {
            throw LaunchError(description: "cannot start a child in \(directory): \(String(cString: strerror(error)))")
        }
    }

    /// One posix_spawn of `program` with `envp`, or this process's environment when it is nil.
    static func spawnOnce(
        _ pid: inout pid_t, _ program: String, _ actions: inout posix_spawn_file_actions_t,
        _ attributes: inout posix_spawnattr_t, _ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?]?
    ) -> Int32 {
        guard let envp else { return posix_spawn(&pid, program, &actions, &attributes, argv, environ) }
        return posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    }
}
