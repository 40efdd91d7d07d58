# wx — see README.md. `make run` and `make test` work on a fresh Debian machine (as root,
# or with sudo available): they install what they need first.
PREFIX ?= /usr/local
SWIFT ?= swift
BUILD_FLAGS ?= -c release --static-swift-stdlib
BIN = $(shell $(SWIFT) build $(BUILD_FLAGS) --show-bin-path 2>/dev/null)/wx
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES = libgdbm-dev groff-base

.PHONY: all deps build run test bench stress fuzz install uninstall clean sample completions

all: build

# System packages: libgdbm (build + run), groff (man page lint). libcurl4, which `wx sync`
# loads at run time, ships with the Swift toolchain's dependencies.
deps:
	@if ! dpkg -s $(APT_PACKAGES) >/dev/null 2>&1 || [ ! -e /usr/include/gdbm.h ]; then \
	  echo "installing $(APT_PACKAGES)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES) libcurl4 >/dev/null; \
	fi

build: deps
	$(SWIFT) build $(BUILD_FLAGS) --product wx
	$(SWIFT) build $(BUILD_FLAGS) --product wx-aqi-watch

# Shows the catalogue offline from the bundled sample, in a throw-away state folder.
run: build
	@WX_HOME=$${WX_HOME:-$$(mktemp -d)} WX_DATA_DIR=$(CURDIR)/Data $(BIN) list

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Benchmarks the binary as installed: release, static Swift stdlib, stripped.
bench: build
	strip -o $(dir $(BIN))wx-stripped $(BIN)
	bash scripts/bench.sh $(dir $(BIN))wx-stripped

stress: deps
	$(SWIFT) build --build-tests
	WX_STRESS=1 $(SWIFT) test --skip-build

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/wx $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d $(DESTDIR)$(PREFIX)/libexec/wx
	install -s -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/wx
	install -s -m 0755 $(BIN)-aqi-watch $(DESTDIR)$(PREFIX)/libexec/wx/wx-aqi-watch
	install -m 0644 Data/sample-weathers.json Data/README.md $(DESTDIR)$(PREFIX)/share/wx/
	install -m 0644 man/wx.1 $(DESTDIR)$(PREFIX)/share/man/man1/wx.1
	$(BIN) completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/wx
	$(BIN) completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_wx
	$(BIN) completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/wx.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/wx $(DESTDIR)$(PREFIX)/share/man/man1/wx.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/wx $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_wx \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/wx.fish
	rm -rf $(DESTDIR)$(PREFIX)/share/wx $(DESTDIR)$(PREFIX)/libexec/wx

sample:
	python3 scripts/make-sample.py

clean:
	rm -rf .build

# libFuzzer: both targets, FUZZ_SECONDS each (default 600), seeds in fuzz/seeds.
FUZZ_SECONDS ?= 600
fuzz: deps
	bash fuzz/build.sh && bash fuzz/run.sh $(FUZZ_SECONDS)
