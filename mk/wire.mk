# The wire (docs/transport.md): network fuzzing of a live peer, discovery in a network namespace, the UDP
# batching benchmark and the load/fault script. See docs/transport.md.

# Seeded mutants to an ASan-built peer over TCP, TLS and UDP (scripts/netfuzz.sh; bounded).
.PHONY: netfuzz
netfuzz: setup ## seeded mutants to an ASan-built live peer over TCP, TLS and UDP
	@bash scripts/netfuzz.sh

# Discovery tests inside a network namespace with a private D-Bus and avahi-daemon
# (scripts/discovery-test.sh; needs root; tears everything down afterwards).
.PHONY: discovery-test
discovery-test: setup ## DNS-SD advertise, browse, rename in a network namespace (root)
	@bash scripts/discovery-test.sh

# The transport against openssl s_server/s_client, socat and avahi (the discovery suite in its
# namespace): one table of behaviours and verdicts (scripts/interop.sh; the discovery rows need root).
.PHONY: interop
interop: setup ## the transport against openssl, socat and avahi peers: one interop table
	@bash scripts/interop.sh

# Benchmarks and load (scripts, never tests; figures in README and docs/transport.md).
.PHONY: udp-batch-bench load-test
udp-batch-bench: setup ## UDP batching benchmark (sendmmsg batches against one datagram per call)
	@bash scripts/udp-batch-bench.sh
load-test: setup ## 1,000 TCP and TLS clients on one listener, a connect storm, stalled and resetting peers
	@bash scripts/load-test.sh
