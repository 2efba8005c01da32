# Telltale: the commands a newcomer and CI run. Each target installs what it needs.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The offline base map's source: GSHHG's shorelines (LGPL-3+) at five resolutions, read with libnetcdf by
# `telltale basemap` when the base map is made (`make basemap`), and the chart's gazetteer, GeoNames' towns
# (CC-BY-4.0) as libgeonames0 carries them; the gateway serves what that makes.
BASEMAP_PACKAGES := gmt-gshhg-low gmt-gshhg-high gmt-gshhg-full libnetcdf19 libgeonames0
APT_PACKAGES := libserialport-dev libgps-dev gpsd gpsd-clients pkg-config gcc libc6-dev python3-venv util-linux \
	libsqlite3-dev libjs-leaflet libeccodes0 libmosquitto-dev xtide-data libsodium23 $(BASEMAP_PACKAGES)
# The panel's browser check (Tests/Panel): a real chromium, driven by selenium; the voice check's espeak-ng and sox.
# The discovery check: avahi-daemon in a network namespace (iproute2). The weather check: GRIB files written with
# ECMWF's ecCodes from Debian's python3-eccodes (which brings libeccodes0, the library `telltale weather import` opens).
# The uplink check: a shore broker, Debian's mosquitto. The fleet's store check: PostgreSQL 15 with PostGIS 3 (and its
# psql), started by the check in a folder of its own. The tide check: Debian's libtcd (XTide's own reader of the
# harmonics files that xtide-data brings) under an independent predictor.
TEST_PACKAGES := chromium chromium-driver fonts-dejavu-core espeak-ng sox alsa-utils avahi-daemon iproute2 python3-eccodes mosquitto gmt \
	postgresql-15 postgresql-15-postgis-3 postgresql-client-15 libtcd0
FUZZ_SECONDS ?= 60
FUZZ_DIR := .build-fuzz
BENCH_SENTENCES ?= 1500000

# Cross compilers, glibc for the targets, and qemu-user to run the ARM builds here.
PI_PACKAGES := gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user

# The SD-card image: Debian's tools to build a root for arm64 here (its packages' scripts run under qemu-user) and to
# make the partitions without loop devices, and QEMU to boot it.
IMAGE_PACKAGES := mmdebstrap genimage mtools dosfstools fdisk e2fsprogs xz-utils qemu-user-static binfmt-support \
	qemu-system-arm openssh-client
VERSION := $(shell sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/Gateway/Configuration/Version.swift)
IMAGE := .build-image/telltale-$(VERSION)-arm64.img

ARCH ?= amd64
# The release build the checks run; `make test` builds it once and empties this for the parts it runs side by side
# (two SwiftPM builds of one folder wait for each other's lock, even with nothing to do).
RELEASE ?= release

.PHONY: deps pi-deps build release release-static test unit interop interop-venv pi pi-check deb debs deb-check run lint format fuzz test-deps \
	bench clean image-deps image image-card image-check pi-chain basemap

# The one way a target installs what it needs: the Debian packages named that are missing, after one apt-get update,
# with sudo when not root; nothing at all when every one is there.
define apt-install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		{ $(SUDO) apt-get update -qq || echo "apt-get update: some lists failed; going on with the rest"; } && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

## Install the system packages the build and the tests use, only when one is missing.
deps:
	$(call apt-install,$(APT_PACKAGES))

test-deps: deps
	$(call apt-install,$(TEST_PACKAGES))

## What the Pi build needs: the cross compilers and qemu-user, and Debian's arm64 and armhf package lists (the C
## libraries are downloaded as .deb files and unpacked under .build-pi, never installed).
pi-deps: deps
	@for a in arm64 armhf; do dpkg --print-foreign-architectures | grep -qx $$a || $(SUDO) dpkg --add-architecture $$a; done
	@for a in arm64 armhf; do apt-cache show libserialport0:$$a >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq || echo "apt-get update: some lists failed; going on with the rest"; break; }; done
	$(call apt-install,$(PI_PACKAGES))
	@for a in arm64 armhf; do apt-cache show libserialport0:$$a >/dev/null 2>&1 || { \
		echo "pi-deps: no $$a package lists after apt-get update; trying once more"; sleep 10; \
		$(SUDO) apt-get update -qq || true; \
		apt-cache show libserialport0:$$a >/dev/null 2>&1 || \
			{ echo "pi-deps: apt has no $$a package lists (apt-get update could not fetch them)" >&2; exit 1; }; }; done

## telltale for the Raspberry Pi, built here: .build-pi/arm64/telltale and .build-pi/armhf/telltale. The two at once:
## each compiles its modules one after the other on one core (whole-module Embedded Swift), so two cores build both
## in the time of one. Each build's words go to its own log, printed when both are done.
pi: pi-deps
	@mkdir -p .build-pi; status=0; \
	Tests/Pi/build.sh arm64 > .build-pi/build-arm64.log 2>&1 & arm64=$$!; \
	Tests/Pi/build.sh armhf > .build-pi/build-armhf.log 2>&1 & armhf=$$!; \
	wait $$arm64 || status=1; wait $$armhf || status=1; \
	cat .build-pi/build-arm64.log .build-pi/build-armhf.log; exit $$status

## The Pi builds under qemu-user: same answers, the golden replay byte for byte, gpsd reads their TCP stream.
pi-check: pi $(RELEASE)
	Tests/Pi/qemu-check.sh

## The desktop build is the release build (it links the Swift standard library in, as the amd64 package and `make run`
## want); kept as a name for the documents that say it.
release-static: release

## One Debian package: make deb ARCH=amd64|arm64|armhf, into .build-deb/.
deb: deps
	@if [ "$(ARCH)" = amd64 ]; then $(MAKE) release-static; else $(MAKE) pi-deps && Tests/Pi/build.sh $(ARCH); fi
	Tests/Pi/deb.sh $(ARCH)

## All three packages.
debs: pi release-static
	for a in amd64 arm64 armhf; do Tests/Pi/deb.sh $$a; done

## The amd64 package installed into a clean bookworm root (debootstrap): check-config, user, unit, removal. The ARM
## packages are made beside it from whatever `make pi` built.
deb-check: $(RELEASE)
	@command -v debootstrap >/dev/null || { $(SUDO) apt-get install -y -qq debootstrap >/dev/null; }
	Tests/Pi/deb.sh amd64
	for a in arm64 armhf; do [ ! -x .build-pi/$$a/telltale ] || Tests/Pi/deb.sh $$a; done
	Tests/Pi/deb-check.sh

## What the image build needs, and arm64 programs run through qemu-user (binfmt_misc mounted and the handler on).
image-deps: pi-deps
	$(call apt-install,$(IMAGE_PACKAGES))
	@mountpoint -q /proc/sys/fs/binfmt_misc || $(SUDO) mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
	@[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || $(SUDO) update-binfmts --enable qemu-aarch64

## The SD-card image for the Raspberry Pi (64-bit), compressed: .build-image/telltale-<version>-arm64.img.xz.
image: image-card
	xz -T0 -6 -k -f $(IMAGE)
	@echo "$(IMAGE).xz: $$(( $$(stat -c %s $(IMAGE).xz) / 1048576 )) MiB"

## The card itself, not compressed: the arm64 build, its package and the image package (with the base map), then
## Tests/Pi/image.sh.
image-card: image-deps
	[ -x .build-pi/arm64/telltale ] || Tests/Pi/build.sh arm64
	[ -f .build/basemap/basemap-f.ttbm ] || $(MAKE) --no-print-directory basemap
	Tests/Pi/deb.sh arm64
	Tests/Pi/deb.sh image
	$(SUDO) Tests/Pi/host-guard.sh Tests/Pi/image.sh arm64

## The image built (not compressed) and booted under qemu-system-aarch64: Tests/Pi/image_check.py.
image-check: image-deps $(RELEASE)
	$(MAKE) --no-print-directory image-card || { echo "image-check: 0 passed, 1 failed"; exit 1; }
	Tests/Pi/image-check.sh $(IMAGE)

build: deps
	$(SWIFT) build

## The offline base map from Debian's GSHHG (.build/basemap, 41 MB): what `make run` serves from the working tree and
## the image package installs. Made by the release build when it is there (no second SwiftPM build to wait for).
basemap: deps
	@[ -x .build/release/telltale ] || $(MAKE) --no-print-directory release
	.build/release/telltale basemap --gshhg /usr/share/gmt-gshhg --output .build/basemap

## One release build for everything after it (the checks, the amd64 package, `make run`, the benchmarks), with the
## Swift standard library linked in: a second, dynamic build cost CI five minutes for nothing it checked.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

## The Swift tests alone, built incrementally and run in parallel: the loop a developer runs after each change (no
## checks with real parts, no Pi build). `make unit FILTER=EngineTests` runs the tests whose names match.
FILTER ?=
unit: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build $(if $(FILTER),--filter '$(FILTER)')

## Build and run every test: the Swift tests, then the interoperability checks with independent consumers.
## Every part runs even when one before it failed (a failure must not hide the checks after it); the exit status
## says whether any failed. The Pi's chain (its cross builds and qemu-user checks, the packages, the card's build and
## its boots under qemu-system-aarch64) runs beside the Swift tests and the interoperability checks: those mostly wait
## on real time (a gateway playing its voyage), the chain mostly computes; one after the other they took CI 47
## minutes on two cores, and with the card's boots after the rest 38. The builds run niced; the boots at the normal
## priority (an emulated Pi starved of a core misses its timers). The chain's output is shown when it ends
## (.build/pi-chain.log). Every temporary folder the tests make is under .build-tmp (TMPDIR), emptied before and
## after: a CI machine that runs the tests again and again keeps nothing of them (the card's boots alone left 2.8 GB
## in /tmp a run, and a later run's image build found the disk full).
test: deps test-deps image-deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory release
	$(MAKE) --no-print-directory basemap
	$(MAKE) --no-print-directory interop-venv
	@mkdir -p .build; rm -rf .build-tmp; mkdir -p .build-tmp; export TMPDIR=$(CURDIR)/.build-tmp; \
	( nice -n 10 $(MAKE) --no-print-directory pi-chain RELEASE= > .build/pi-chain.log 2>&1 ) & chain=$$!; \
	status=0; \
	for step in "$(SWIFT) test --skip-build" "$(MAKE) --no-print-directory interop RELEASE="; do \
		start=$$(date +%s); $$step || status=1; echo "== took $$(( $$(date +%s) - start )) s: $$step"; \
	done; \
	start=$$(date +%s); wait $$chain || status=1; \
	echo "== the Pi's chain, run beside them (waited $$(( $$(date +%s) - start )) s more for it):"; \
	cat .build/pi-chain.log; \
	rm -rf .build-tmp; exit $$status

## What `make test` runs beside the other checks: pi-check, deb-check, the card and its boots. Once both Pi builds
## are made, two lanes: the qemu-user checks (computing) beside the packages' check, the card's build (mostly
## unpacking and writing) and the card booted (Tests/Pi/image-check.sh, put back to the normal priority), each lane's
## words printed when both are done.
pi-chain:
	@status=0; mkdir -p .build; \
	start=$$(date +%s); $(MAKE) --no-print-directory pi || status=1; \
	echo "== took $$(( $$(date +%s) - start )) s: make pi (arm64 and armhf)"; \
	( start=$$(date +%s); Tests/Pi/qemu-check.sh; s=$$?; \
	  echo "== took $$(( $$(date +%s) - start )) s: Tests/Pi/qemu-check.sh (pi-check)"; exit $$s ) \
		> .build/pi-lane-qemu.log 2>&1 & qemu=$$!; \
	( s=0; for step in "$(MAKE) --no-print-directory deb-check" "$(MAKE) --no-print-directory image-card"; do \
		start=$$(date +%s); $$step || s=1; echo "== took $$(( $$(date +%s) - start )) s: $$step"; done; \
	  start=$$(date +%s); nice -n -10 Tests/Pi/image-check.sh $(IMAGE) || s=1; \
	  echo "== took $$(( $$(date +%s) - start )) s: Tests/Pi/image-check.sh"; exit $$s ) \
		> .build/pi-lane-card.log 2>&1 & card=$$!; \
	wait $$qemu || status=1; wait $$card || status=1; \
	cat .build/pi-lane-qemu.log .build/pi-lane-card.log; \
	exit $$status

# The checks beside the Swift tests, named once in Tests/checks.list (.ci/run reads their counts from there too), in
# two lanes run side by side: the checks of tides, routing, calibration and the shore's accounts (each with its own
# gateways, broker and browser on ports the system gives it, and its own files) beside all the others. One after the
# other they were CI's longest path (2,053 s of a 42-minute run); they mostly wait on real time, not on the cores.
# Lane B's words are printed when both are done (.build/interop-lane-b.log).
INTEROP_LANE_B := tide-check tide-board-check routing-check calibration-check calibration-board-check \
	routing-board-check shore-accounts-check
INTEROP_PICK = $(shell awk -v b="$(INTEROP_LANE_B)" -v want=$(1) 'BEGIN { n = split(b, a, " "); \
	for (i = 1; i <= n; i++) lane[a[i]] = 1 } !/^\#/ && NF == 2 && (($$1 in lane) == want) { print $$2 }' Tests/checks.list)
INTEROP_CHECKS := $(call INTEROP_PICK,0)
INTEROP_CHECKS_B := $(call INTEROP_PICK,1)

# The checks' Python packages from PyPI, in one virtual environment, installed once before the lanes start (each check
# also installs what it lacks, which two lanes must not do at once).
INTEROP_PYPI := pynmea2 pyais==3.3.1 jsonschema websocket-client nmea2000==2026.10.3 python-can==4.6.1 zeroconf \
	signalk-client requests paho-mqtt gpxpy geographiclib aiosmtpd http_ece cryptography selenium
INTEROP_IMPORTS := pynmea2, pyais, jsonschema, websocket, nmea2000, can, zeroconf, signalk_client, requests, \
	paho.mqtt.client, gpxpy, geographiclib, aiosmtpd, http_ece, cryptography, selenium

interop-venv:
	@[ -x .build-interop/venv/bin/python ] || python3 -m venv .build-interop/venv
	@.build-interop/venv/bin/python -c "import $(INTEROP_IMPORTS)" 2>/dev/null \
		|| .build-interop/venv/bin/pip install --quiet $(INTEROP_PYPI)

interop: $(RELEASE) interop-venv
	@mkdir -p .build; status=0; \
	( s=0; for check in $(INTEROP_CHECKS_B); do echo "== $$check"; start=$$(date +%s); $$check || s=1; \
		echo "== took $$(( $$(date +%s) - start )) s: $$check"; done; exit $$s ) > .build/interop-lane-b.log 2>&1 & \
	lane=$$!; \
	for check in $(INTEROP_CHECKS); do echo "== $$check"; start=$$(date +%s); $$check || status=1; \
		echo "== took $$(( $$(date +%s) - start )) s: $$check"; done; \
	start=$$(date +%s); wait $$lane || status=1; \
	echo "== lane B (run beside; waited $$(( $$(date +%s) - start )) s more for it):"; \
	cat .build/interop-lane-b.log; exit $$status

## The gateway on its bench profile: the demo voyage in real time, in a loop, served on TCP 10110. The panel is served
## from the working tree's Sources/Panel/ (an edit there needs the gateway restarted, not a rebuild).
## Built with the Swift standard library linked in, as on a Pi (about 14.5 MB resident instead of 17.6).
run: release-static
	@[ -f .build/basemap/basemap-f.ttbm ] || $(MAKE) --no-print-directory basemap
	.build/release/telltale run --config Boards/bench.toml

## The format lint, and the house's size rules (no hand-written file of code over 300 lines, no function over 100).
lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift
	python3 Tests/Support/house_rules.py Sources Tests Benchmarks

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

## libFuzzer over framer, decoder, re-encode and AIS reassembly, from the seed corpus of anomaly cases; then over the
## NMEA 2000 codec (recorded-bus text and raw frames through the receiver, the node and the conversion to 0183), from
## its own corpus. FUZZ_SECONDS each.
fuzz:
	mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/n2k-corpus $(FUZZ_DIR)/n2k-src
	cp -n Tests/Fuzz/corpus/* $(FUZZ_DIR)/corpus/ 2>/dev/null || true
	cp -n Tests/Fuzz/n2k-corpus/* $(FUZZ_DIR)/n2k-corpus/ 2>/dev/null || true
	swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name NMEAFuzz \
		Sources/NMEA/*.swift Sources/NMEA/Sentences/*.swift Sources/NMEA/AIS/*.swift Tests/Fuzz/NMEAFuzz.swift \
		-o $(FUZZ_DIR)/nmea-fuzz
	$(FUZZ_DIR)/nmea-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=1024 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/corpus
	for f in Sources/Bridge/N2KInbound*.swift Sources/Bridge/AISConversion.swift; do \
		grep -v '^import ' $$f | sed 's/N2K\.Attitude/Attitude/g' > $(FUZZ_DIR)/n2k-src/$$(basename $$f); done
	for f in $$(find Sources/Marine -name '*.swift'); do cp $$f $(FUZZ_DIR)/n2k-src/Marine-$$(basename $$f); done
	swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name N2KFuzz \
		Sources/NMEA/*.swift Sources/NMEA/Sentences/*.swift Sources/NMEA/AIS/*.swift Sources/N2K/*.swift \
		Sources/N2K/PGNs/*.swift Sources/N2K/Generated/*.swift $(FUZZ_DIR)/n2k-src/*.swift Tests/Fuzz/N2KFuzz.swift \
		-o $(FUZZ_DIR)/n2k-fuzz
	$(FUZZ_DIR)/n2k-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/n2k- $(FUZZ_DIR)/n2k-corpus

## Benchmarks; figures go to stdout. See Benchmarks/README.md.
bench: release
	BENCH_SENTENCES=$(BENCH_SENTENCES) Benchmarks/decode.sh
	Benchmarks/engine.sh
	Benchmarks/attitude.sh
	Benchmarks/imu.sh
	Benchmarks/replay.sh
	Benchmarks/runtime.sh
	Benchmarks/signalk.sh
	Benchmarks/chart.sh
	Benchmarks/weather.sh
	Benchmarks/uplink.sh
	$(SUDO) .build-interop/venv/bin/python Benchmarks/fleet.py .build/release/telltale 60

clean:
	rm -rf .build $(FUZZ_DIR)
