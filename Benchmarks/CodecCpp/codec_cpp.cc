// CodecCpp: Google's libprotobuf (C++, Debian's libprotobuf-dev) decoding and encoding the same
// bytes as the facades (the ratio step of `make bench`). Compiled twice from
// protoc --cpp_out of Protos/: as is (full runtime, reflection-based Message) and from a scratch copy
// with `option optimize_for = LITE_RUNTIME` (MessageLite, linked against libprotobuf-lite only).
//   decode = construct an rtm::DataPacket, ParseFromArray, destroy it;
//   encode = SerializeToString into a new std::string (ByteSizeLong, allocate, write), destroy it.
//
//   CodecCpp FILE ITERATIONS    FILE holds one encoded rtm.DataPacket (CodecBench dump)
//
// valgrind --tool=callgrind counts the inclusive instructions of loop_decode and loop_encode. Stops
// unless the bytes decode and re-encode byte for byte.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rtm/data.pb.h"

extern "C" __attribute__((noinline)) long loop_decode(const char *bytes, int size, long n) {
    long sum = 0;
    for (long i = 0; i < n; i++) {
        rtm::DataPacket packet;
        sum += packet.ParseFromArray(bytes, size) ? 1 : 0;
    }
    return sum;
}

extern "C" __attribute__((noinline)) long loop_encode(const rtm::DataPacket *packet, long n) {
    long sum = 0;
    for (long i = 0; i < n; i++) {
        std::string out;
        sum += packet->SerializeToString(&out) ? static_cast<long>(out.size()) : 0;
    }
    return sum;
}

int main(int argc, char **argv) {
    if (argc != 3) { std::fprintf(stderr, "usage: CodecCpp FILE ITERATIONS\n"); return 2; }
    long n = std::atol(argv[2]);
    FILE *file = std::fopen(argv[1], "rb");
    if (file == nullptr || n <= 0) { std::fprintf(stderr, "CodecCpp: cannot read %s\n", argv[1]); return 2; }
    std::vector<char> bytes(1 << 20);
    bytes.resize(std::fread(bytes.data(), 1, bytes.size(), file));
    std::fclose(file);
    rtm::DataPacket packet;  // what encode works from; the round-trip check is the warm-up
    std::string again;
    if (!packet.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) || !packet.SerializeToString(&again) ||
        again != std::string(bytes.begin(), bytes.end())) {
        std::fprintf(stderr, "CodecCpp: %s does not decode and re-encode byte for byte\n", argv[1]);
        return 1;
    }
    long sum = loop_decode(bytes.data(), static_cast<int>(bytes.size()), n) + loop_encode(&packet, n);
    std::printf("CodecCpp %s: %zu bytes, iterations %ld checksum %ld\n", argv[1], bytes.size(), n, sum);
    return 0;
}
