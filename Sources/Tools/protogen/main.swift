// protogen: writes Swift facades for nanopb C structs from a protoc descriptor set.
// All logic lives in ProtoGenKit; `protogen --help` lists the subcommands.

import ProtoGenKit

#if canImport(Glibc)
import Glibc
#endif

exit(ProtoGen.main(Array(CommandLine.arguments.dropFirst())))
