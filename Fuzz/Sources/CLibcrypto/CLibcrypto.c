// Empty: the target only exposes <openssl/sha.h> to Swift and links libcrypto.
#include "CLibcrypto.h"
