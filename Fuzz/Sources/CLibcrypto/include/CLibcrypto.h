// OpenSSL's libcrypto (Debian's libssl-dev), for SHA-1 corpus file names as libFuzzer writes them.
#include <openssl/sha.h>
