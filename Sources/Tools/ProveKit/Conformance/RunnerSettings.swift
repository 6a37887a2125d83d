// What the build of Google's conformance_test_runner is made from, read from the environment the
// shell script used to read: CXX, CXXFLAGS, JOBS, PROTOBUF_SRC, CONFORMANCE_OUT.

import Foundation

/// The inputs of one runner build. Every value ends up in the generated Makefile or on `make`'s
/// command line; none is read anywhere else.
struct RunnerSettings: Equatable, Sendable {
    /// Debian's protobuf 3.21.12 source tree (`make setup` unpacks it into .deps/protobuf).
    let source: String
    /// The build folder: its Makefile, gen/, obj/ and conformance_test_runner.
    let output: String
    /// The C++ compiler, a name looked up on PATH by make or a path.
    let compiler: String
    /// Optimisation and other flags the Makefile puts between `-std=c++14` and `-w -pthread`.
    let compilerFlags: String
    /// `make -j` jobs; invariant: 1...64.
    let jobs: Int

    /// The runner executable this build makes.
    var runner: String { output + "/conformance_test_runner" }
}

extension RunnerSettings {
    /// Reads the settings: PROTOBUF_SRC (default ROOT/.deps/protobuf), CONFORMANCE_OUT (default
    /// ROOT/.build/conformance), CXX (default g++, else clang++, as `isOnPath` finds them),
    /// CXXFLAGS (default -O1), JOBS (default `cores`). An empty variable counts as unset.
    /// Throws for a JOBS that is not a whole number from 1 to 64, for no compiler, and for a
    /// folder with white space in it (make would split it).
    init(root: String, environment: [String: String], cores: Int, isOnPath: (String) -> Bool) throws(ConformanceError) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        source = value("PROTOBUF_SRC") ?? root + "/.deps/protobuf"
        output = value("CONFORMANCE_OUT") ?? root + "/.build/conformance"
        for (name, folder) in [("PROTOBUF_SRC", source), ("CONFORMANCE_OUT", output)] where folder.contains(where: \.isWhitespace) {
            throw ConformanceError("\(name) '\(folder)' holds white space, which the generated Makefile cannot quote")
        }
        if let given = value("CXX") {
            compiler = given
        } else if let found = ["g++", "clang++"].first(where: isOnPath) {
            compiler = found
        } else {
            throw ConformanceError("no C++ compiler (g++ or clang++) on PATH; set CXX")
        }
        compilerFlags = value("CXXFLAGS") ?? "-O1"
        if let text = value("JOBS") {
            guard let count = Int(text), (1...64).contains(count) else {
                throw ConformanceError("JOBS must be a whole number from 1 to 64, not '\(text)'")
            }
            jobs = count
        } else {
            jobs = max(1, min(cores, 64))
        }
    }
}
