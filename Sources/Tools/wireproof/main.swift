// The `wireproof` command: a thin entry point. `prove` is ProveKit's (the whole proof on any schema);
// `oracle-check` is OracleCheck's (the oracle against protoc alone).
import Foundation
import OracleCheck
import ProveKit

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "prove" { exit(await ProveCommand.main(arguments)) }
exit(await WireproofCommand.main(arguments))
