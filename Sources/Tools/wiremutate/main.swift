// The `wiremutate` command: a thin entry point over MutationKit's MutateCommand.
import CommandLineSupport
import Foundation
import MutationKit

exit(await CommandExit.run(MutateCommand.self, Array(CommandLine.arguments.dropFirst())))
