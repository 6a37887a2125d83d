// See include/GoogleParser.h. Written against libprotobuf 3.21's public API: DescriptorPool,
// DynamicMessageFactory, Message::ParsePartialFromArray.

#include "GoogleParser.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/message.h>
#include <google/protobuf/stubs/logging.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

struct wpg_parser {
    google::protobuf::DescriptorPool pool;
    google::protobuf::DynamicMessageFactory factory{&pool};
    // Prototypes by full name; owned by `factory`.
    std::unordered_map<std::string, const google::protobuf::Message *> prototypes;
};

static void copy_error(char *error, size_t error_size, const std::string &text) {
    if (error == nullptr || error_size == 0) return;
    size_t n = text.size() < error_size - 1 ? text.size() : error_size - 1;
    std::memcpy(error, text.data(), n);
    error[n] = '\0';
}

extern "C" wpg_parser *wpg_parser_create(const uint8_t *descriptor_set, size_t size, char *error, size_t error_size) {
    // Google logs every UTF-8 failure at ERROR level; the fuzzer feeds millions of them.
    google::protobuf::SetLogHandler(nullptr);
    google::protobuf::FileDescriptorSet set;
    if (!set.ParseFromArray(descriptor_set, static_cast<int>(size))) {
        copy_error(error, error_size, "not a FileDescriptorSet");
        return nullptr;
    }
    std::unique_ptr<wpg_parser> parser(new wpg_parser());
    for (const auto &file : set.file()) {
        if (parser->pool.BuildFile(file) == nullptr) {
            copy_error(error, error_size, "cannot build " + file.name());
            return nullptr;
        }
    }
    return parser.release();
}

extern "C" void wpg_parser_destroy(wpg_parser *parser) { delete parser; }

extern "C" int wpg_parse(wpg_parser *parser, const char *full_name, const uint8_t *data, size_t size,
                         uint8_t **out, size_t *out_size, int *initialized) {
    *out = nullptr;
    *out_size = 0;
    *initialized = 0;
    auto found = parser->prototypes.find(full_name);
    if (found == parser->prototypes.end()) {
        const google::protobuf::Descriptor *descriptor = parser->pool.FindMessageTypeByName(full_name);
        if (descriptor == nullptr) return -1;
        found = parser->prototypes.emplace(full_name, parser->factory.GetPrototype(descriptor)).first;
    }
    std::unique_ptr<google::protobuf::Message> message(found->second->New());
    if (!message->ParsePartialFromArray(data, static_cast<int>(size))) return 0;
    *initialized = message->IsInitialized() ? 1 : 0;
    message->DiscardUnknownFields();
    std::string bytes;
    if (!message->SerializePartialToString(&bytes)) return 0;
    *out = static_cast<uint8_t *>(std::malloc(bytes.size() + 1));
    std::memcpy(*out, bytes.data(), bytes.size());
    *out_size = bytes.size();
    return 1;
}

extern "C" void wpg_free(void *pointer) { std::free(pointer); }
