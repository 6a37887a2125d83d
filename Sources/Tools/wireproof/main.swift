// The `wireproof` command: a thin entry point over `WireproofCommand` in the OracleCheck library.
import Foundation
import OracleCheck

exit(await WireproofCommand.main(Array(CommandLine.arguments.dropFirst())))
