#!/usr/bin/env bash
# `make interop`: the transport against real peers nobody here wrote, as one table from one run.
#   1. the suites that talk to openssl s_server / s_client and socat on 127.0.0.1
#      (Tests/WireTransportTests: Interop, TLS options, TLS verification), certificates made by the
#      tests with openssl (faketime for dates outside a certificate's validity);
#   2. the connect timeout against a SYN blackholed by a router namespace, a local blackhole route
#      seen as a path, and routes removed and restored under the path monitor and connections
#      (Tests/WireTransportTests: BlackholeTimeout, PathMonitor; each test makes its own namespaces;
#      needs root);
#   3. the discovery suite against avahi-daemon and avahi-publish/avahi-browse in a network
#      namespace of its own (scripts/discovery-test.sh; needs root).
# Prints one row per behaviour with the peer and the verdict of the test that pins it; a row whose
# test did not pass (failed, or did not run) fails the leg. Logs: .scratch/interop/.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
logs="$root/.scratch/interop"
mkdir -p "$logs"
started=$(date +%s)

# test function | peer | behaviour
rows=(
  "maximumVersionTwelveNegotiatesTLS12WithOpenSSL|openssl s_server|maximum version 1.2: TLS 1.2 negotiated"
  "defaultVersionsNegotiateTLS13WithOpenSSL|openssl s_server|default versions: TLS 1.3 negotiated"
  "minimumVersionThirteenFailsAgainstATLS12OnlyServer|openssl s_server -tls1_2|minimum version 1.3: refused by a 1.2-only server"
  "aNamedTLS13SuiteIsTheOneNegotiatedWithOpenSSL|openssl s_server|a named TLS 1.3 cipher suite is the one negotiated"
  "aNamedTLS12SuiteIsTheOneNegotiatedWithOpenSSL|openssl s_server|a named TLS 1.2 cipher suite is the one negotiated"
  "alpnChosenByAnOpenSSLServerIsReadable|openssl s_server -alpn|ALPN: the server's choice is readable in the metadata"
  "listenerPicksItsPreferredALPNForAnOpenSSLClient|openssl s_client -alpn|ALPN: the listener picks its preferred protocol"
  "anIdentityFromMemoryServesItsWholeChain|openssl s_client -showcerts|identity from memory: the whole chain is sent"
  "ourClientCertificateSatisfiesAnOpenSSLServerThatRequiresOne|openssl s_server -Verify|mTLS, our client: its certificate is accepted, data both ways"
  "withoutAClientCertificateAnOpenSSLServerThatRequiresOneRefusesUs|openssl s_server -Verify|mTLS, our client: without a certificate, refused (certificate required)"
  "aListenerThatRequiresClientCertificatesRefusesAClientWithoutOne|openssl s_client -cert|mTLS, our listener: a client without a certificate refused, with one accepted"
  "aPinOfAnOpenSSLServersKeyIsAcceptedAndAnyOtherPinRejected|openssl s_server|SPKI-SHA-256 pinning: the server's pin accepted, another rejected"
  "aNameAnOpenSSLServersCertificateDoesNotCarryFailsVerification|openssl s_server|wrong name: hostname mismatch"
  "aServerCertificateOutsideItsValidityFailsVerificationNamingWhy|openssl s_server + faketime|expired and not-yet-valid certificates: refused, naming why"
  "aFinalMessageReachesSocatWhichEchoesItAndEndsItsSide|socat TCP4-LISTEN EXEC:cat|final message: half-close reaches the peer, which answers and ends"
  "socatsHalfCloseReachesOurListenerAsTheEndOfTheStream|socat -u FILE TCP4|the peer's half-close reaches our listener as the end of the stream"
  "eachOfOurDatagramsComesBackWholeFromASocatEcho|socat UDP4-RECVFROM,fork|UDP: datagrams of 1 to 8,000 bytes echoed whole"
  "connectThroughARouterThatBlackholesTheSYNTimesOutAtTheConnectionTimeout|kernel blackhole route on a router (namespace)|connect timeout: a SYN dropped on the way fails at the 0.5 s timeout, is retried once, then failed(timedOut(connect))"
  "aBlackholeRouteOnThisHostMakesTheConnectionWaitForThePathNotTimeOut|kernel blackhole route on this host (namespace)|a local blackhole: waiting for the path, no attempt made, ready once it is removed"
  "monitorReportsUnsatisfiedWhenTheRouteGoesAndSatisfiedWhenItReturns|kernel routes (namespace, ip route del/add)|path monitor: unsatisfied when the route goes, satisfied when it returns"
  "connectionWithoutARouteWaitsForThePathThenConnectsWhenItReturns|kernel routes (namespace) + socat echo|no route: the connection waits for the path, then connects when it returns"
  "readyConnectionReportsViabilityFalseWhenItsRouteGoesAndTrueWhenItReturns|kernel routes (namespace) + socat echo|ready connection: viability false when its route goes, true when it returns"
  "aRouteThroughAnotherInterfaceIsReportedAsABetterPathUntilItGoes|kernel routes (namespace, two veth pairs)|better path: a route through another interface reported until it goes"
  "advertisedListenerIsBrowsedAddedThenRemovedWhenWithdrawn|avahi-daemon (namespace)|DNS-SD: advertised, browsed, removed when withdrawn"
  "explicitNameAlreadyTakenIsRenamedAndTheNewNameReported|avahi-daemon (namespace)|DNS-SD: a taken name is renamed and the new name reported"
  "takenNameWithoutRenamesLeftFailsWithANameConflict|avahi-daemon (namespace)|DNS-SD: a taken name without renaming fails with a name conflict"
  "aTXTRecordIsResolvedAndAnUpdateReplacesIt|avahi-daemon (namespace)|DNS-SD: a TXT record resolved, an update replaces it"
  "txtRecordsCrossBetweenAvahisToolsAndThisAPI|avahi-publish / avahi-browse|DNS-SD: TXT records cross between Avahi's tools and this API"
  "aConnectionToABrowseResultResolvesItAndExchangesDataBothWays|avahi-daemon (namespace)|DNS-SD: a connection to a browse result resolves it while preparing, data both ways"
)

echo "interop: building the tests"
"$SWIFT" build --build-tests > "$logs/build.log" 2>&1 || { tail -20 "$logs/build.log"; die "the tests do not build"; }
echo "interop: openssl and socat peers (Interop, TLS options, TLS verification), blackholed and removed routes (namespaces)"
"$SWIFT" test --skip-build --filter 'WireTransportTests\.(InteropTests|TLSOptionsTests|TLSVerificationTests|BlackholeTimeoutTests|PathMonitorTests)' > "$logs/tls-socat.log" 2>&1
echo "interop: avahi peers in a network namespace (scripts/discovery-test.sh)"
if [ "$(id -u)" = 0 ]; then
  bash scripts/discovery-test.sh > "$logs/discovery.log" 2>&1
else
  echo "interop: not root: the discovery rows cannot run (ip netns)" | tee "$logs/discovery.log"
fi

status=0
printf '| peer | behaviour | result |\n|---|---|---|\n' > "$logs/table.md"
for row in "${rows[@]}"; do
  IFS='|' read -r test peer behaviour <<< "$row"
  line=$(cat "$logs/tls-socat.log" "$logs/discovery.log" | grep -E " Test $test\(" | grep -E 'passed|failed|skipped' | tail -n 1)
  case "$line" in
    *passed*) verdict=passed ;;
    *failed*) verdict=FAILED; status=1 ;;
    *skipped*) verdict="SKIPPED"; status=1 ;;
    *) verdict="NOT RUN"; status=1 ;;
  esac
  printf '| %s | %s | %s |\n' "$peer" "$behaviour" "$verdict" >> "$logs/table.md"
done
cat "$logs/table.md"
echo "interop: $(grep -c '| passed |' "$logs/table.md") of ${#rows[@]} rows passed in $(( $(date +%s) - started )) s (logs: ${logs#"$root"/}/)"
exit "$status"
