// The `wireproof` command: a thin entry point over ProveKit's WireproofCommand
// (`wireproof --help` lists the subcommands).
import Foundation
import ProveKit

exit(await WireproofCommand.main(Array(CommandLine.arguments.dropFirst())))
