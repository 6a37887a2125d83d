// The libprotobuf side of scripts/peak-memory.sh: decodes the same hostile inputs as
// `runtime-exerciser peak` with Google's C++ runtime (full, from Debian's libprotobuf-dev) and prints
// the peak resident memory the parse added, in the same format.
//   peak_libprotobuf participant|stats COUNT
#include <sys/resource.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include "rtm/room.pb.h"
#include "rtm/stats.pb.h"

static long max_resident_kib() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

int main(int argc, char **argv) {
  if (argc != 3) { std::fprintf(stderr, "usage: %s participant|stats COUNT\n", argv[0]); return 2; }
  const std::string kind = argv[1];
  const long count = std::atol(argv[2]);
  std::string input;
  for (long i = 0; i < count; i++) {
    if (kind == "participant") input.append("\x32\x00", 2);        // an empty `tracks` element
    else input.append("\x1a\x02\x12\x00", 4);                     // a streams_by_ssrc entry, empty value
  }
  const long before = max_resident_kib();
  std::string outcome;
  if (kind == "participant") {
    rtm::Participant message;
    outcome = message.ParseFromString(input) ? "decoded " + std::to_string(message.tracks_size()) + " tracks" : "parse failed";
  } else {
    rtm::StatsSnapshot message;
    outcome = message.ParseFromString(input) ? "decoded " + std::to_string(message.streams_by_ssrc_size()) + " entries" : "parse failed";
  }
  std::printf("input_bytes=%zu peak_added_kib=%ld outcome=%s\n", input.size(), max_resident_kib() - before, outcome.c_str());
  return 0;
}
