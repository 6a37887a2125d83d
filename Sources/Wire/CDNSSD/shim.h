// The Bonjour DNS-SD API as Avahi's compatibility library provides it (Debian
// libavahi-compat-libdnssd-dev, installed by scripts/setup.sh; /usr/include/dns_sd.h).
#include <dns_sd.h>
