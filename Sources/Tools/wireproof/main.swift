// The `wireproof` command: a thin entry point over ProveKit's WireproofCommand
// (`wireproof --help` lists the subcommands).
import Foundation
import ProveKit

// Every `swift build` this tool starts inherits deterministic hashing, so SwiftPM lists
// swift-protobuf's trait defines in one order and a re-planned package (prove's scratch package,
// rewritten for every schema) does not recompile all of swift-protobuf; a value already set wins.
setenv("SWIFT_DETERMINISTIC_HASHING", "1", 0)
exit(await WireproofCommand.main(Array(CommandLine.arguments.dropFirst())))
