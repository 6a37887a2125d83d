// Avahi's own client library (Debian libavahi-client-dev, installed by scripts/setup.sh): its
// service resolver answers the SRV target's address together with the SRV data, which the dns_sd
// compatibility layer (CDNSSD) cannot (it has no DNSServiceGetAddrInfo).
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-common/address.h>
#include <avahi-common/error.h>
#include <avahi-common/thread-watch.h>
