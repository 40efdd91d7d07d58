# wx — see README.md. `make run` and `make test` work on a fresh Debian machine (as root,
# or with sudo available): they install what they need first.
PREFIX ?= /usr/local
SWIFT ?= swift
SHELL := /bin/bash
# Release builds link libstdc++, libgcc and libgdbm statically as well as the Swift runtime:
# the dynamic loader's relocations of libstdc++ were a third of every command's start-up
# (`wx search par` 3.6 -> 2.5 ms). Only libc and libm stay shared, so `wx sync` can still
# dlopen libcurl. The archives are found through STATIC_LIBS, a folder holding only them
# (a -L folder searched before the system's, where the shared libraries would win).
STATIC_LIBS = $(CURDIR)/.build/static-libs
BUILD_FLAGS ?= -c release --static-swift-stdlib -Xlinker -L$(STATIC_LIBS) -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
  $(METADATA_FLAGS) $(SECTION_FLAGS)
# Generic types the code names (an array of places, an optional city) get their metadata from
# the runtime's accessor functions, not by demangling the type's name: the first use of each
# type demangled it, and the 50 such types of `wx search par` were a sixth of its time (at a
# million cities, x0.91 with this flag; 0.07 MB more code).
METADATA_FLAGS = -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# Every function in a section of its own, so the link can drop the ones nothing calls (SwiftPM
# links release executables with --gc-sections: wx stripped 26 -> 17 MB) and place the ones
# the read commands run together (ORDER_FLAGS).
SECTION_FLAGS = -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections
# `wx` is linked by lld (the toolchain's), which lays out the functions the read commands run
# and the data they touch (scripts/wx.link-order, written by scripts/link-order.sh) first in
# .text, .data and .bss, in that order: in link order the code was spread over 12 MB, a page
# fault of about 4 us for each 64 KiB window touched, and the data over 190 pages, a fault or
# two for each page written (`wx search par` at a million cities: 303 -> 268 faults for the
# code, 253 -> 236 for the data). gold's ordering file did not move them. A name the build no
# longer has is skipped: a stale list costs faults, never correctness (LinkOrderTests says
# when it is stale).
ORDER_FILE = $(CURDIR)/scripts/wx.link-order
ORDER_FLAGS = -Xswiftc -use-ld=lld -Xlinker --symbol-ordering-file=$(ORDER_FILE) -Xlinker --no-warn-symbol-ordering
# `wx` itself is linked position-dependent, as Go links its programs by default: a PIE made
# the loader apply 40,000 relocations and copy the pages they touch at every start
# (`wx search par` 3.6 -> 2.7 ms). Its network and TLS code is not in it: libcurl is a shared
# library loaded by `wx sync`, and the WebSocket client wx-aqi-watch stays a PIE.
# `make WX_LINK_FLAGS= install` builds a PIE wx. What ASLR this gives up, with hostile JSON
# parsed inside wx, and why it is kept: ARCHITECTURE.md, "Trade-offs decided".
WX_LINK_FLAGS ?= -Xlinker -no-pie
# And with no symbols exported and no $ORIGIN search path: SwiftPM links an executable with
# --export-dynamic, and the Swift runtime's start-up calls dladdr, which scans every exported
# symbol (3,800, 0.12 M instructions, about a tenth of `wx top`); the loader looked for libc
# and libm in ten folders beside the binary first.
WX_START_FLAGS = -Xlinker --no-export-dynamic --disable-local-rpath
BIN = $(shell $(SWIFT) build $(BUILD_FLAGS) --show-bin-path 2>/dev/null)/wx
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES = libgdbm-dev libssl-dev openssl groff-base zsh fish python3-pyte

.PHONY: all deps static-libs build build-wx build-aqi-watch run test bench stress fuzz install uninstall clean sample completions grammar format

all: build

# System packages: libgdbm (build + run), libssl (wx-aqi-watch's TLS: build + run), openssl
# (the wss:// tests make their certificates), groff (man page lint), zsh and fish (the
# completion tests drive them). libcurl4, which `wx sync` loads at run time, ships with the Swift toolchain's dependencies.
deps:
	@if ! dpkg -s $(APT_PACKAGES) >/dev/null 2>&1 || [ ! -e /usr/include/gdbm.h ]; then \
	  echo "installing $(APT_PACKAGES)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES) libcurl4 >/dev/null; \
	fi

# Links the static archives into STATIC_LIBS. A missing one stops the build: linking it shared
# instead would ship a different binary from the one measured and tested.
static-libs: deps
	@mkdir -p $(STATIC_LIBS)
	@for a in libstdc++.a libgdbm.a; do \
	  p=$$(gcc -print-file-name=$$a 2>/dev/null); \
	  case "$$p" in /*) [ -f "$$p" ] || p= ;; *) p= ;; esac; \
	  if [ -z "$$p" ]; then echo "make: $$a not found (libstdc++-12-dev, libgdbm-dev): cannot link wx statically" >&2; exit 1; fi; \
	  [ "$$(readlink $(STATIC_LIBS)/$$a)" = "$$(realpath "$$p")" ] || ln -sf "$$(realpath "$$p")" $(STATIC_LIBS)/$$a; \
	done

# wx, then the WebSocket client of `wx aqi watch`.
build: build-wx build-aqi-watch

# The WebSocket client of `wx aqi watch` (SwiftNIO; TLS by the system's OpenSSL, libssl3, linked
# shared so apt's security updates reach it), built without WXCore (it must link no GDBM,
# shared or static), in its own build folder so it can build beside wx (`make test`), and
# placed beside wx, where wx looks for it. Its little C (NIO's shims) is compiled at -O1.
AQI_FLAGS = $(BUILD_FLAGS) --scratch-path $(CURDIR)/.build/aqi-watch -Xcc -O1
build-aqi-watch: static-libs
	$(SWIFT) build $(AQI_FLAGS) --product wx-aqi-watch
	install -D -m 0755 $$($(SWIFT) build $(AQI_FLAGS) --show-bin-path)/wx-aqi-watch $(BIN)-aqi-watch
	@if ldd $(BIN)-aqi-watch | grep -q libgdbm || nm $(BIN)-aqi-watch | grep -q ' gdbm_fetch'; then \
	  echo "make: $(BIN)-aqi-watch links libgdbm" >&2; exit 1; fi

build-wx: static-libs
	@# SwiftPM does not know the order file: a newer one relinks.
	@if [ -e $(BIN) ] && [ $(ORDER_FILE) -nt $(BIN) ]; then rm -f $(BIN); fi
	$(SWIFT) build $(BUILD_FLAGS) $(WX_LINK_FLAGS) $(WX_START_FLAGS) $(ORDER_FLAGS) --product wx
	@if ldd $(BIN) | grep -Eq 'libgdbm|libstdc\+\+|libswiftCore'; then \
	  echo "make: $(BIN) links libgdbm, libstdc++ or the Swift runtime dynamically" >&2; exit 1; fi

# Shows the catalogue offline from the bundled sample, in a throw-away state folder, with the
# data as `make install` lays it out (.build/share/wx: the sample, atlas.bin and the shared
# atlas store built from it once, so no state folder builds its own).
RUN_SHARE = $(CURDIR)/.build/share/wx
run: build-wx
	@mkdir -p $(RUN_SHARE) && cp -p Data/sample-weathers.json Data/sample-weathers.crc32 Data/atlas.bin $(RUN_SHARE)/
	@$(BIN) __build-atlas $(RUN_SHARE)
	@WX_HOME=$${WX_HOME:-$$(mktemp -d)} WX_DATA_DIR=$(RUN_SHARE) $(BIN) list

# The checks, the three builds and the two suites, arranged by scripts/test.sh so that the two
# cores are rarely idle while something is left to do: the generated fold table is current and
# the code passes swift-format's rules (scripts/lint.sh, with the checked-in .swift-format);
# the debug test bundle (`--product wxPackageTests`, in its own build folder, .build/tests,
# without debug information), wx in release and wx-aqi-watch (in .build/aqi-watch, only on idle
# CPU: SCHED_IDLE) build at once; the completion table is current; the shared data folder is
# built once by the release binary (the atlas store, which took WXCore's suite 75 s to build in
# debug); WXCore's suite runs on the debug bundle (its assertions on), in one run with the
# end-to-end suite (wxTests, with the views and structure checks), which runs once, on the
# binary exactly as `make install` builds it (release, static, position-dependent): the path
# users take; the suites that run wx-aqi-watch run once it is built. Kill loops, concurrency storms and the biggest inputs run at full size in `make
# stress`. The project's own code must compile without warnings in every build
# (scripts/check-warnings.sh reads each build log).
test: deps
	SWIFT=$(SWIFT) MAKE=$(MAKE) bash scripts/test.sh

# The completion grammar's table of every command's options, value lists and positionals
# (Sources/wx/Completion/CompletionDeclarations.swift), rewritten from ArgumentParser's
# declarations: run it after adding or changing an option. `make test` checks it is current.
grammar:
	$(SWIFT) build --product wx
	python3 scripts/gen-completion-grammar.py $$($(SWIFT) build --show-bin-path)/wx
	$(SWIFT) build --product wx

# Rewrites the tree's layout with the checked-in .swift-format; `make test` fails on any finding.
format:
	$(SWIFT) format -i -r Sources Tests fuzz Package.swift

# Benchmarks the binary as installed: release, static Swift stdlib, stripped.
bench: build
	strip -o $(dir $(BIN))wx-stripped $(BIN)
	bash scripts/bench.sh $(dir $(BIN))wx-stripped
	python3 scripts/bench-browse.py $(dir $(BIN))wx-stripped
	$(SWIFT) build $(BUILD_FLAGS) --product wx-decode-bench
	WX_BENCH_DECODER=$(dir $(BIN))wx-decode-bench bash scripts/bench-fresh.sh $(dir $(BIN))wx-stripped

stress: deps
	$(SWIFT) build --build-tests
	WX_STRESS=1 $(SWIFT) test --skip-build

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/wx $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d $(DESTDIR)$(PREFIX)/libexec/wx
	install -s -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/wx
	install -s -m 0755 $(BIN)-aqi-watch $(DESTDIR)$(PREFIX)/libexec/wx/wx-aqi-watch
	install -m 0644 Data/sample-weathers.json Data/sample-weathers.crc32 Data/atlas.bin Data/README.md $(DESTDIR)$(PREFIX)/share/wx/
	$(BIN) __build-atlas $(DESTDIR)$(PREFIX)/share/wx
	install -m 0644 man/wx.1 $(DESTDIR)$(PREFIX)/share/man/man1/wx.1
	$(BIN) completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/wx
	$(BIN) completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_wx
	$(BIN) completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/wx.fish
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/user
	sed 's|@BINDIR@|$(PREFIX)/bin|' contrib/systemd/wx-sync.service > $(DESTDIR)$(PREFIX)/lib/systemd/user/wx-sync.service
	chmod 0644 $(DESTDIR)$(PREFIX)/lib/systemd/user/wx-sync.service
	install -m 0644 contrib/systemd/wx-sync.timer $(DESTDIR)$(PREFIX)/lib/systemd/user/wx-sync.timer

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/wx $(DESTDIR)$(PREFIX)/share/man/man1/wx.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/wx $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_wx \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/wx.fish
	rm -rf $(DESTDIR)$(PREFIX)/share/wx $(DESTDIR)$(PREFIX)/libexec/wx
	rm -f $(DESTDIR)$(PREFIX)/lib/systemd/user/wx-sync.service $(DESTDIR)$(PREFIX)/lib/systemd/user/wx-sync.timer

sample:
	python3 scripts/make-sample.py

clean:
	rm -rf .build

# libFuzzer: both targets, FUZZ_SECONDS each (default 600), seeds in fuzz/seeds.
FUZZ_SECONDS ?= 600
fuzz: deps
	bash fuzz/build.sh && bash fuzz/run.sh $(FUZZ_SECONDS)
